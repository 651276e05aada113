package remotewrite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// TestTotalsKeptWhenNoSeriesEmptied: remote write's running totals start
// again only when the history empties a series: readings recorded again
// and again (the series' upsert), another measured source taking over a
// series (its source updated, its readings kept) and forgetting a source
// that has no series leave them.
func TestTotalsKeptWhenNoSeriesEmptied(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	st, err := history.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	c, err := openCursor(ctx, path, "http://store", false)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	at := time.Now().Add(-2 * time.Hour).Truncate(time.Minute)
	rain := func(src string, min int) sensors.Reading {
		return sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.2, Time: at.Add(time.Duration(min) * time.Minute), Source: src}
	}
	record(t, st, rain("station/gw2000a", 0))
	if _, err := c.db.Exec("INSERT INTO remote_write (url, t, series, sent_at, sent, failed) VALUES ('http://store', 1, 1, 1, 1, 0)"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.db.Exec("INSERT INTO remote_write_totals (url, series, total) SELECT 'http://store', id, 2 FROM series"); err != nil {
		t.Fatal(err)
	}
	kept := func(after string) {
		t.Helper()
		cur, _, err := c.load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(cur.totals) != 1 {
			t.Errorf("after %s: totals %v, want the series' kept", after, cur.totals)
		}
	}
	for i := 1; i < 5; i++ {
		record(t, st, rain("station/gw2000a", i))
	}
	kept("more readings of the same source")
	record(t, st, rain("mqtt/rtl_433/Fineoffset-WH65B/1", 10))
	kept("another measured source")
	if _, err := st.ForgetSource(ctx, "demo/"); err != nil {
		t.Fatal(err)
	}
	kept("forgetting the demo, which fed nothing")
}
