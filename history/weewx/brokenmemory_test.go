package weewx

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/climated/climated/history"
)

// centibarArchive is an archive of n five-minute records whose every
// soilMoist1 is in centibars (150), as a Davis soil station's are: every
// record is broken, none of them by much.
func centibarArchive(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "weewx.sdb")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		"CREATE TABLE archive (dateTime INTEGER NOT NULL UNIQUE PRIMARY KEY, usUnits INTEGER NOT NULL, interval INTEGER NOT NULL, outTemp REAL, soilMoist1 REAL)",
		fmt.Sprintf("WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM c WHERE i < %d) INSERT INTO archive SELECT 1262304000+i*300, 1, 5, 50, 150 FROM c", n-1),
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

// peakHeap runs f and samples the heap in use meanwhile; it returns the
// highest sample.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	<-stopped
	return peak
}

// TestBrokenRecordsMemoryBounded: an archive whose every record has one
// bad value (300,000 records, a little over a year of weewx every five
// minutes, soilMoist1 in centibars) imports nothing and says so; what it
// holds meanwhile stays near what a good archive of that size costs
// (about 5 MB of heap), not a copy of every broken record's error. Ten
// years of such an archive on a small hub would run it out of memory
// before the error could be printed.
func TestBrokenRecordsMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("300,000 records")
	}
	ctx := context.Background()
	path := centibarArchive(t, 300000)
	a, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	store, err := history.Open(ctx, filepath.Join(t.TempDir(), "h.db"), &history.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(ctx)
	rows, err := a.Rows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var res history.ImportResult
	peak := peakHeap(func() {
		res, err = store.ImportRows(ctx, rows, history.ImportOptions{What: "record"})
	})
	if err == nil {
		t.Fatalf("imported %d readings of an archive whose every record is broken", res.Imported)
	}
	const limit = 40 << 20
	if peak > limit {
		t.Errorf("importing 300,000 broken records held %d MB of heap (limit %d MB); %d broken records kept in the result", peak>>20, limit>>20, res.Bad.N)
	}
}
