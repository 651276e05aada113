package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestForgetSourceTakesWhatClaimCallsMeasured: forgetting the demo
// (ForgetSource of sensors.SimulatedPrefix) forgets the series that
// sensors.Simulated calls simulated, and none that it calls measured: a
// source named "Demo/…" or "DEMO/…" (an import's source column, a
// device's name) is measured by the claim, so that a demo reading of its
// series is skipped, and forgetting the demo must keep its readings.
func TestForgetSourceTakesWhatClaimCallsMeasured(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, nil)
	at := time.Now().Add(-time.Hour).Truncate(time.Minute)
	if sensors.Simulated("DEMO/Bedroom") {
		t.Fatal("sensors.Simulated calls DEMO/Bedroom simulated")
	}
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{
		{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 20, Time: at, Source: "DEMO/Bedroom"},
		{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 30, Time: at.Add(time.Minute), Source: "demo/Bedroom"},
	}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := seriesReadings(t, path, "Bedroom"); len(got) != 1 || got[20] != 1 {
		t.Fatalf("Bedroom holds %v; want the measured 20 °C alone", got)
	}
	rep, err := s.ForgetSource(ctx, sensors.SimulatedPrefix)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Series) != 0 {
		t.Errorf("forgetting the demo forgot %v, a series the claim calls measured", rep.Series)
	}
	if got := seriesReadings(t, path, "Bedroom"); got[20] != 1 {
		t.Errorf("after forgetting the demo Bedroom holds %v; want the measured reading of 20 °C", got)
	}
}
