package hub

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// TestSeriesResetHeard: OnSeriesReset hears every series whose past
// readings go: one a measured reading takes from the demo, one an import
// takes, those ForgetSource forgets; OnRecord hears no simulated reading
// of a measured series.
func TestSeriesResetHeard(t *testing.T) {
	ctx := context.Background()
	h := openTest(t, filepath.Join(t.TempDir(), "h.db"), nil)
	var reset []string
	var heard []string
	h.OnSeriesReset(func(_ context.Context, zone string, m sensors.Measurement) { reset = append(reset, zone+"/"+string(m)) })
	h.OnRecord(func(_ context.Context, rs []sensors.Reading) {
		for _, r := range rs {
			heard = append(heard, r.Zone+" "+r.Source)
		}
	})
	at := time.Now().Add(-time.Hour).Truncate(time.Minute)
	temp := func(zone, src string, min int) sensors.Reading {
		return sensors.Reading{Zone: zone, Measurement: sensors.Temperature, Value: 20, Time: at.Add(time.Duration(min) * time.Minute), Source: src}
	}
	record := func(rs ...sensors.Reading) {
		t.Helper()
		if err := h.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
			t.Fatal(err)
		}
		if err := h.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	record(temp("Bedroom", "demo/Bedroom", 0), temp("Cellar", "demo/Cellar", 0), temp("Attic", "demo/Attic", 0))
	record(temp("Bedroom", "station/gw2000a", 1))
	record(temp("Bedroom", "demo/Bedroom", 2))
	if want := []string{"Bedroom/Temperature"}; !slices.Equal(reset, want) {
		t.Errorf("after the station took Bedroom, reset %v; want %v", reset, want)
	}
	if want := []string{"Bedroom demo/Bedroom", "Cellar demo/Cellar", "Attic demo/Attic", "Bedroom station/gw2000a"}; !slices.Equal(heard, want) {
		t.Errorf("OnRecord heard %v; want %v", heard, want)
	}
	reset = nil
	csv := strings.Join(history.ExportHeader, ",") + "\n" + fmt.Sprintf("%s,Cellar,Temperature,12,\n", at.Add(5*time.Minute).Format(time.RFC3339))
	if _, err := h.Import(ctx, strings.NewReader(csv), history.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Cellar/Temperature"}; !slices.Equal(reset, want) {
		t.Errorf("after an import took Cellar, reset %v; want %v", reset, want)
	}
	reset = nil
	if _, err := h.ForgetSource(ctx, sensors.SimulatedPrefix); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Attic/Temperature"}; !slices.Equal(reset, want) {
		t.Errorf("after the demo was forgotten, reset %v; want %v", reset, want)
	}
}
