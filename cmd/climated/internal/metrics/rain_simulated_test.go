package metrics

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestRainCounterCountsNoSimulatedRain: a zone's rain counter is either
// the demo's or a real gauge's, as its series is (sensors.Claim). The
// demo's rain in a zone a station measures is not recorded, so the
// station's counter (simulated="false") must not count it; and a station
// that takes a zone the demo filled starts its counter without the demo's
// rain, whose readings the history dropped.
func TestRainCounterCountsNoSimulatedRain(t *testing.T) {
	ctx := context.Background()
	h := openHub(t, filepath.Join(t.TempDir(), "h.db"))
	t.Cleanup(func() { h.Close(ctx) })
	m := New()
	if err := m.WatchReadings(ctx, h, 0, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	rain := func(zone string, mm float64, ago time.Duration, src string) sensors.Reading {
		return sensors.Reading{Zone: zone, Measurement: sensors.Rain, Value: mm, Time: now.Add(-ago), Source: src}
	}
	// Garden: the station measures; the demo runs beside it.
	// Meadow: the demo filled it, then the station takes it.
	for _, rs := range [][]sensors.Reading{
		{rain("Garden", 1, 30*time.Minute, "station/gw2000a"), rain("Meadow", 7, 30*time.Minute, "demo/Meadow")},
		{rain("Garden", 5, 20*time.Minute, "demo/Garden")},
		{rain("Meadow", 2, 10*time.Minute, "station/gw2000a")},
	} {
		if err := h.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	totals, err := h.Totals(ctx, sensors.Rain)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the history's rain totals: %v", totals)
	text := scrape(t, m)
	for sample, want := range map[string]float64{
		`climated_rain_meters_total{simulated="false",source="station/gw2000a",zone="Garden"}`: 0.001, // the station's 1 mm, not the demo's 5
		`climated_rain_meters_total{simulated="false",source="station/gw2000a",zone="Meadow"}`: 0.002, // the station's 2 mm, not the demo's 7 before
	} {
		if got := metricValue(text, sample); got != want {
			t.Errorf("%s = %v, want %v", sample, got, want)
		}
	}
}
