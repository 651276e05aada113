package datacmd

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// TestWeewxDryRunMemoryBounded: the dry run of an archive whose every
// record has one bad value (300,000 five-minute records, soilMoist1 in
// centibars as a Davis soil station gives it) prints the first 20 broken
// records and a count; what it holds meanwhile stays near what a good
// archive costs, not a copy of every broken record.
func TestWeewxDryRunMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("300,000 records")
	}
	path := filepath.Join(t.TempDir(), "weewx.sdb")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"CREATE TABLE archive (dateTime INTEGER NOT NULL UNIQUE PRIMARY KEY, usUnits INTEGER NOT NULL, interval INTEGER NOT NULL, outTemp REAL, soilMoist1 REAL)",
		"WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM c WHERE i < 299999) INSERT INTO archive SELECT 1262304000+i*300, 1, 5, 50, 150 FROM c",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	runtime.GC()
	var peak uint64
	done, stopped := make(chan struct{}), make(chan struct{})
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
	var out bytes.Buffer
	in := importIn{file: path, db: filepath.Join(t.TempDir(), "h.db"), loc: time.UTC}
	err = importWeewx(context.Background(), in, weewxFlags{zones: zoneFlags{}, dryRun: true}, &out, io.Discard)
	close(done)
	<-stopped
	if err != nil || !strings.Contains(out.String(), "broken record") {
		t.Fatalf("%v\n%s", err, out.String())
	}
	const limit = 40 << 20
	if peak > limit {
		t.Errorf("the dry run of 300,000 broken records held %d MB of heap (limit %d MB)", peak>>20, limit>>20)
	}
}
