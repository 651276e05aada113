package hub

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestLiveSkipsTheDemoInASeriesStillMeasured: a series a station measured
// stays measured once its raw readings have passed their retention (its
// rollups keep its history): the history skips a demo reading of it
// (sensors.Claim). The live structure must skip it too; else get_climate
// shows the demo's simulated value as the series' current one, beside the
// station's history of it, and takes it back at the next restart.
func TestLiveSkipsTheDemoInASeriesStillMeasured(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	opts := &history.Options{RawRetention: 24 * time.Hour, FlushInterval: 10 * time.Millisecond}
	st, err := history.Open(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now().Add(-72 * time.Hour).Truncate(time.Hour)
	var rs []sensors.Reading
	for i := range 24 {
		rs = append(rs, sensors.Reading{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 20, Time: t0.Add(time.Duration(i) * time.Hour), Source: "station/gw2000a"})
	}
	if err := st.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func(q string) (n int) {
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	testutil.WaitFor(t, "the raw readings past their retention pruned", func() bool {
		return count("SELECT count(*) FROM raw") == 0 && count("SELECT count(*) FROM recent") == 0
	})
	if n := count("SELECT count(*) FROM rollup_1h"); n == 0 {
		t.Fatal("no rollups kept")
	}
	if err := st.Close(ctx); err != nil {
		t.Fatal(err)
	}

	h, err := Open(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	if err := h.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 30, Time: time.Now().Add(-time.Minute), Source: "demo/Bedroom"}}}); err != nil {
		t.Fatal(err)
	}
	if err := h.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var src string
	if err := db.QueryRow("SELECT source FROM series WHERE zone = 'Bedroom'").Scan(&src); err != nil {
		t.Fatal(err)
	}
	stored := count("SELECT count(*) FROM recent")
	t.Logf("the history: Bedroom's temperature is %s's, %d demo readings written", src, stored)
	if v, ok := h.Snapshot().Climate["Bedroom"]["Temperature"]; ok {
		t.Errorf("get_climate shows Bedroom at %v °C, the demo's simulated reading the history skipped in the station's series", v)
	}
}
