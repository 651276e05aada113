package alerts_test

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// TestReadOnlyDB: a second process beside the hub (climated mcp, climated
// alerts) opens the tables read-only: it reads the alerts that are on, the
// earliest first, and follows the events the hub appends, and it cannot
// write.
func TestReadOnlyDB(t *testing.T) {
	c := &clock{jan1}
	db, path := newDB(t, c)
	ctx := context.Background()
	ro, err := alerts.OpenDB(ctx, path, &alerts.DBOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if last, err := ro.LatestEvent(ctx); err != nil || last != 0 {
		t.Fatalf("latest event of an empty history %d, %v", last, err)
	}
	ev := func(zone string, at time.Time) alerts.Event {
		return alerts.Event{Type: alerts.Fired, Rule: "house.co2", Kind: alerts.Above, Zone: zone, Measurement: sensors.CO2, Time: at, Value: 1500, Unit: "ppm"}
	}
	st := func(zone string, phase alerts.Phase, fired time.Time) alerts.State {
		return alerts.State{Rule: "house.co2", Zone: zone, Phase: phase, Since: fired, FiredAt: fired, Value: 1500}
	}
	if err := db.Commit(ctx, []alerts.State{st("Indoor", alerts.Firing, jan1.Add(time.Hour)), st("Bedroom", alerts.Clearing, jan1),
		st("Balcony", alerts.Pending, time.Time{})}, []alerts.Event{ev("Bedroom", jan1), ev("Indoor", jan1.Add(time.Hour))}); err != nil {
		t.Fatal(err)
	}
	active, err := ro.Active(ctx)
	if err != nil || len(active) != 2 || active[0].Zone != "Bedroom" || active[1].Zone != "Indoor" {
		t.Errorf("active %+v, %v: want Bedroom (fired first), then Indoor", active, err)
	}
	evs, last, err := ro.EventsAfter(ctx, 0, 1)
	if err != nil || len(evs) != 1 || evs[0].Zone != "Bedroom" || last != 1 {
		t.Fatalf("first event %+v (last %d), %v", evs, last, err)
	}
	if evs, last, err = ro.EventsAfter(ctx, last, 10); err != nil || len(evs) != 1 || evs[0].Zone != "Indoor" || !evs[0].House || last != 2 {
		t.Errorf("next events %+v (last %d), %v", evs, last, err)
	}
	if evs, last, err = ro.EventsAfter(ctx, last, 10); err != nil || len(evs) != 0 || last != 2 {
		t.Errorf("no new event: %+v (last %d), %v", evs, last, err)
	}
	if _, err := ro.AddRule(ctx, alerts.Rule{Kind: alerts.Stale, Zone: "Indoor", For: time.Hour}); err == nil {
		t.Error("a read-only DB added a rule")
	}
}
