package alerting

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// TestStormNotFromDemoToStation: a station that takes a zone the demo
// filled drops the demo's readings (sensors.Claim): the history and
// get_climate keep the station's alone. The storm rule compares the
// pressure with what it was within 3 hours; the demo's simulated
// pressure before the station's first reading is not the house's, so a
// station reading 20 hPa under the demo's must not make a storm warning.
func TestStormNotFromDemoToStation(t *testing.T) {
	ctx := context.Background()
	h, a := openAlerting(t, config.AlertsConfig{House: alerts.DefaultHouse()}, "Garden")
	now := time.Now()
	hpa := func(v float64, ago time.Duration, src string) []sensors.Reading {
		return []sensors.Reading{{Zone: "Garden", Measurement: sensors.Pressure, Value: v, Time: now.Add(-ago), Source: src}}
	}
	if err := h.Record(ctx, sensors.Batch{Readings: hpa(1030, 2*time.Hour, "demo/Garden")}); err != nil {
		t.Fatal(err)
	}
	if err := h.Record(ctx, sensors.Batch{Readings: hpa(1010, time.Minute, "station/gw2000a")}); err != nil {
		t.Fatal(err)
	}
	if pts := h.Points("Garden", sensors.Pressure, 0); len(pts) != 1 || pts[0].V != 1010 {
		t.Fatalf("the live window holds %v; want the station's 1010 hPa alone", pts)
	}
	for _, s := range a.engine.Active() {
		t.Errorf("alert %s is active in %s, from the demo's simulated pressure to the station's: %+v", s.Rule, s.Zone, s)
	}
	for len(a.events) > 0 {
		for _, ev := range <-a.events {
			t.Errorf("event %s %s: %s", ev.Type, ev.Rule, ev.Text)
		}
	}
}
