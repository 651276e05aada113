package alerting

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
)

// TestForgottenDemoLeavesNoAlert: once the demo stops (real sources
// configured), its readings are forgotten (ForgetDemo: Hub.ForgetSource),
// so that nothing simulated is shown as the house's. An alert its
// readings fired must not stay active in the house's zone after it, nor
// come back at the next start: the Bedroom whose real sensor measures no
// CO2 would show the demo's "stuffy air" for ever.
func TestForgottenDemoLeavesNoAlert(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	h, err := hub.Open(ctx, path, &history.Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	house := alerts.DefaultHouse()
	house.CO2.For = 5 * time.Minute // held 5 minutes rather than 15, within the engine's reach of a reading's age
	deps := Deps{Config: config.AlertsConfig{House: house}, Hub: h, Zones: []string{"Bedroom"}, Log: slog.New(slog.DiscardHandler)}
	a, err := Open(ctx, deps)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	var rs []sensors.Reading
	for i := 12; i >= 0; i-- {
		rs = append(rs, sensors.Reading{Zone: "Bedroom", Measurement: sensors.CO2, Value: 2000, Time: now.Add(-time.Duration(i) * time.Minute), Source: "demo/Bedroom"})
	}
	for _, r := range rs {
		if err := h.Record(ctx, sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
			t.Fatal(err)
		}
	}
	firing := func(a *Alerter) (out []string) {
		for _, s := range a.engine.Active() {
			out = append(out, s.Rule+" in "+s.Zone)
		}
		return out
	}
	if len(firing(a)) == 0 {
		t.Fatal("the demo's CO2 fired nothing")
	}
	rep, err := h.ForgetSource(ctx, sensors.SimulatedPrefix)
	if err != nil || len(rep.Series) == 0 {
		t.Fatalf("forget the demo: %+v, %v", rep, err)
	}
	if got := firing(a); len(got) > 0 {
		t.Errorf("after the demo is forgotten, active: %v", got)
	}
	// The next start.
	a.db.Close()
	if err := h.Close(ctx); err != nil {
		t.Fatal(err)
	}
	h, err = hub.Open(ctx, path, &history.Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(ctx) })
	deps.Hub = h
	a, err = Open(ctx, deps)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.db.Close() })
	if got := firing(a); len(got) > 0 {
		t.Errorf("at the next start, with no reading of the demo left, active: %v", got)
	}
}
