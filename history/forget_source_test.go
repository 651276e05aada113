package history

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestForgetSource: the readings of the series a source last wrote go
// from every tier, the other series keep theirs, and a series forgotten
// takes a new source's readings.
func TestForgetSource(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, nil)
	t0 := time.Now().Add(-3 * time.Hour).Truncate(time.Hour)
	var rs []sensors.Reading
	for i := range 180 {
		at := t0.Add(time.Duration(i) * time.Minute)
		rs = append(rs,
			sensors.Reading{Zone: "Bedroom", Measurement: sensors.CO2, Value: 600, Time: at, Source: "demo/Bedroom"},
			sensors.Reading{Zone: "Balcony", Measurement: sensors.Temperature, Value: 10, Time: at, Source: "demo/Balcony"},
			sensors.Reading{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 20, Time: at, Source: "station/gw2000a"})
	}
	if err := s.Record(ctx, rs); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ForgetSource(ctx, "demo%"); err == nil {
		t.Error("a prefix with a LIKE wildcard was taken")
	}
	rep, err := s.ForgetSource(ctx, "demo/")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Series) != 2 || rep.Readings != 360 || len(rep.Zones()) != 2 {
		t.Errorf("report %+v (zones %v), want 2 series, 360 readings, 2 zones", rep, rep.Zones())
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kept := 0
	for _, table := range []string{"raw", "recent", "rollup_5m", "rollup_1h", "rollup_1d"} {
		var demo, station int
		q := "SELECT count(*) FROM " + table + " r JOIN series s ON s.id = r.series WHERE s.source LIKE ?"
		db.QueryRow(q, "demo/%").Scan(&demo)
		db.QueryRow(q, "station/%").Scan(&station)
		if demo != 0 {
			t.Errorf("%s keeps %d rows of the demo", table, demo)
		}
		kept += station
	}
	if kept < 180 {
		t.Errorf("the station's series keeps %d rows over the tiers, want its 180 readings at least", kept)
	}
	if err := s.Record(ctx, []sensors.Reading{{Zone: "Bedroom", Measurement: sensors.CO2, Value: 700, Time: time.Now(), Source: "station/gw2000a"}}); err != nil {
		t.Fatalf("a forgotten series takes no new readings: %v", err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	db.QueryRow("SELECT count(*) FROM recent r JOIN series s ON s.id = r.series WHERE s.zone = 'Bedroom' AND s.measurement = 'CO2'").Scan(&n)
	if n != 1 {
		t.Errorf("Bedroom CO2 holds %d recent readings after the station's one, want 1", n)
	}
}
