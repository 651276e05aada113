package alerting

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// TestAlertsJudgeNoSimulatedReadingOfAMeasuredSeries: with the demo
// beside a station (demo: enabled: true), a series the station measures
// takes none of the demo's readings (sensors.Claim): the history skips
// them and get_climate does not show them. The alerts judge the house's
// readings, so a demo reading of that series must not fire a rule: the
// Bedroom is at the station's 20 °C, not at the demo's 30 °C.
func TestAlertsJudgeNoSimulatedReadingOfAMeasuredSeries(t *testing.T) {
	ctx := context.Background()
	h, a := openAlerting(t, config.AlertsConfig{}, "Bedroom")
	if _, err := a.engine.Create(ctx, alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.Temperature, Threshold: 26}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	temp := func(v float64, ago time.Duration, src string) []sensors.Reading {
		return []sensors.Reading{{Zone: "Bedroom", Measurement: sensors.Temperature, Value: v, Time: now.Add(-ago), Source: src}}
	}
	if err := h.Record(ctx, sensors.Batch{Readings: temp(20, 2*time.Minute, "station/gw2000a")}); err != nil {
		t.Fatal(err)
	}
	if err := h.Record(ctx, sensors.Batch{Readings: temp(30, time.Minute, "demo/Bedroom")}); err != nil {
		t.Fatal(err)
	}
	if got := h.Snapshot().Climate["Bedroom"]["Temperature"]; got != 20.0 {
		t.Fatalf("get_climate says Bedroom is at %v; want the station's 20 °C", got)
	}
	for _, s := range a.engine.Active() {
		t.Errorf("alert %s is active in %s on the demo's simulated reading of a measured series: %+v", s.Rule, s.Zone, s)
	}
	for len(a.events) > 0 {
		for _, ev := range <-a.events {
			t.Errorf("event %s %s: %s", ev.Type, ev.Rule, ev.Text)
		}
	}
}
