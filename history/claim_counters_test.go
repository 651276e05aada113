package history

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestClaimDropsTheCounters: a measured source that takes a series the
// demo filled, and forgetting the demo, delete the remote-write counters
// kept of the series with its readings, in the same transaction: a
// restart does not resume the demo's total under the station's name
// (remote write's trigger on the series' resets).
func TestClaimDropsTheCounters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openAll(t, path)
	at := time.Now().Add(-time.Hour).Truncate(time.Minute)
	rain := func(zone, src string, min int) sensors.Reading {
		return sensors.Reading{Zone: zone, Measurement: sensors.Rain, Value: 0.2, Time: at.Add(time.Duration(min) * time.Minute), Source: src}
	}
	record := func(rs ...sensors.Reading) {
		t.Helper()
		if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	record(rain("Cabin", "demo/Cabin", 0), rain("Shed", "demo/Shed", 0))
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("INSERT INTO remote_write_totals (url, series, total) SELECT 'http://store', id, 2 FROM series"); err != nil {
		t.Fatal(err)
	}
	counters := func() (n int) {
		t.Helper()
		if err := db.QueryRow("SELECT count(*) FROM remote_write_totals").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	record(rain("Cabin", "station/gw2000a", 1))
	if n := counters(); n != 1 {
		t.Errorf("after the station took Cabin, %d counters kept; want the Shed's alone", n)
	}
	if _, err := s.ForgetSource(ctx, sensors.SimulatedPrefix); err != nil {
		t.Fatal(err)
	}
	if n := counters(); n != 0 {
		t.Errorf("after the demo was forgotten, %d counters kept; want none", n)
	}
}
