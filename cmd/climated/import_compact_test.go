package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// TestImportLeavesDatabaseCompacted: a hub stopped before its compaction
// caught up with a backfill leaves readings waiting in the recent table;
// `climated import` leaves none of them there (the imported ones go
// straight to raw and the rollups), so long charts read the rollups at
// once rather than the readings one by one until the hub catches up.
func TestImportLeavesDatabaseCompacted(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	ctx := context.Background()
	// An hour-long FlushInterval: the store closes before its first tick,
	// as a hub stopped mid-catch-up does.
	s, err := history.Open(ctx, db, &history.Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	from := time.Now().Add(-5 * time.Hour).Truncate(time.Hour)
	var rs []sensors.Reading
	for i := range 120 {
		rs = append(rs, sensors.Reading{Zone: "Cellar", Measurement: sensors.Temperature, Value: 10 + float64(i%7), Time: from.Add(time.Duration(i) * time.Minute), Source: "test"})
	}
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	waiting := func() int {
		t.Helper()
		sdb, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		defer sdb.Close()
		var n int
		if err := sdb.QueryRow("SELECT count(*) FROM recent WHERE t < ?", time.Now().Truncate(time.Hour).Unix()).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := waiting(); n != len(rs) {
		t.Fatalf("before the import %d readings wait for compaction, want %d", n, len(rs))
	}
	file := filepath.Join(dir, "attic.csv")
	csv := "time,zone,measurement,value,source\n" + from.UTC().Format(time.RFC3339) + ",Attic,Temperature,21.5,test\n"
	if err := os.WriteFile(file, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := climated("import", "--db", db, file).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "imported 1 reading") {
		t.Fatalf("import: %v %s", err, out)
	}
	if n := waiting(); n != 0 {
		t.Errorf("after the import %d readings still wait for compaction", n)
	}
	r, err := history.OpenReadOnly(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	got, err := r.Range(ctx, history.Query{Zone: "Cellar", Measurement: sensors.Temperature, From: from.Add(-time.Hour), To: from.Add(3 * time.Hour)})
	if err != nil || got.Summary == nil || got.Summary.Count != len(rs) {
		t.Errorf("the compacted readings read back as %+v, %v; want %d", got.Summary, err, len(rs))
	}
}
