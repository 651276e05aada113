package history

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
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
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
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
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "Bedroom", Measurement: sensors.CO2, Value: 700, Time: time.Now(), Source: "station/gw2000a"}}}); err != nil {
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

// seriesReadings are the raw and recent readings of zone's temperature,
// by value.
func seriesReadings(t *testing.T, path, zone string) map[float64]int {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT v FROM raw JOIN series s ON s.id = raw.series WHERE s.zone = ?1
		UNION ALL SELECT v FROM recent JOIN series s ON s.id = recent.series WHERE s.zone = ?1`, zone)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[float64]int{}
	for rows.Next() {
		var v float64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got[decode(sensors.Temperature, v)]++
	}
	return got
}

// TestSeriesNeverMixSimulatedAndMeasured (the first case found by an
// adversarial pass): the demo run beside a station (demo: enabled: true)
// and wrote Bedroom's temperature after the station's three hours; a
// series holds one source, the latest, so forgetting the demo took the
// station's measured readings with it. A simulated reading of a measured
// series is now skipped, and a measured reading that takes a simulated
// series deletes the simulated ones first, so that forgetting the demo
// forgets exactly its readings.
func TestSeriesNeverMixSimulatedAndMeasured(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, nil)
	t0 := time.Now().Add(-3 * time.Hour).Truncate(time.Minute)
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Minute) }
	temp := func(zone string, v float64, i int, src string) sensors.Reading {
		return sensors.Reading{Zone: zone, Measurement: sensors.Temperature, Value: v, Time: at(i), Source: src}
	}
	var rs []sensors.Reading
	for i := range 90 {
		rs = append(rs, temp("Bedroom", 20, i, "station/gw2000a"), temp("Cellar", 11, i, "demo/Cellar"))
	}
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	// The demo writes last in Bedroom; the station comes to the Cellar.
	rs = []sensors.Reading{temp("Bedroom", 21, 90, "demo/Bedroom"), temp("Cellar", 12, 90, "station/gw2000a")}
	for i := 91; i < 120; i++ {
		rs = append(rs, temp("Bedroom", 20, i, "station/gw2000a"), temp("Cellar", 13, i, "demo/Cellar"))
	}
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := seriesReadings(t, path, "Bedroom"); len(got) != 1 || got[20] != 119 {
		t.Errorf("Bedroom's temperature holds %v; want the station's 119 readings of 20 °C, none of the demo's", got)
	}
	if got := seriesReadings(t, path, "Cellar"); len(got) != 1 || got[12] != 1 {
		t.Errorf("the Cellar's temperature holds %v; want the station's one reading of 12 °C, none of the demo's", got)
	}
	rep, err := s.ForgetSource(ctx, "demo/")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Series) != 0 {
		t.Errorf("forgetting the demo forgot %v; want nothing, the series are measured", rep.Series)
	}
	if got := seriesReadings(t, path, "Bedroom"); got[20] != 119 {
		t.Errorf("after forgetting the demo Bedroom holds %v; want the station's 119 readings", got)
	}
}

// TestImportNeverMixesSimulatedAndMeasured: a file whose series goes
// from the demo's readings to a station's, within one chunk, imports the
// station's alone, in raw and in every rollup tier.
func TestImportNeverMixesSimulatedAndMeasured(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, nil)
	t0 := time.Now().Add(-48 * time.Hour).Truncate(24 * time.Hour)
	var csv strings.Builder
	csv.WriteString(strings.Join(ExportHeader, ",") + "\n")
	for i := range 120 {
		src, v := "demo/Bedroom", 30.0
		if i >= 60 {
			src, v = "station/gw2000a", 20.0
		}
		fmt.Fprintf(&csv, "%s,Bedroom,Temperature,%g,%s\n", t0.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), v, src)
	}
	if _, err := s.Import(ctx, strings.NewReader(csv.String()), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := seriesReadings(t, path, "Bedroom"); len(got) != 1 || got[20] != 60 {
		t.Errorf("raw holds %v; want the station's 60 readings of 20 °C", got)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tier := range rollupTiers {
		var n int
		var high float64
		if err := db.QueryRow("SELECT coalesce(sum(n), 0), coalesce(max(hi), 0) FROM "+tier.table).Scan(&n, &high); err != nil {
			t.Fatal(err)
		}
		if n != 60 || high != 20 {
			t.Errorf("%s counts %d readings, highest %g; want the station's 60, 20 °C", tier.table, n, high)
		}
	}
}
