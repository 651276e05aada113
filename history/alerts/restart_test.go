package alerts_test

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// The bedroom's CO2 night of 1 January: the house rule fires at 02:50 and
// clears at 07:10 (5-minute steps, TestHouseCO2). A restart in the middle of
// the hold, or of the firing, neither loses nor repeats an event.
func TestRestart(t *testing.T) {
	runs := []struct {
		name    string
		restart time.Time
	}{
		{"during the hold", time.Date(2025, 1, 1, 2, 40, 0, 0, time.UTC)},
		{"while firing", time.Date(2025, 1, 1, 5, 0, 0, 0, time.UTC)},
	}
	for _, run := range runs {
		t.Run(run.name, func(t *testing.T) {
			c := &clock{jan1}
			db, path := newDB(t, c)
			e := newEngine(t, c, only("co2", nil), db)
			before := drive(t, e, c, house(), jan1, run.restart, 5*time.Minute, nil)
			db.Close()

			db2 := openDB(t, path, c) // a new process: a new connection, a new engine
			e2 := newEngine(t, c, only("co2", nil), db2)
			after := drive(t, e2, c, house(), run.restart.Add(5*time.Minute), jan1.Add(10*time.Hour), 5*time.Minute, nil)

			// Without the restart: the reference.
			cr := &clock{jan1}
			ref := drive(t, newEngine(t, cr, only("co2", nil), nil), cr, house(), jan1, jan1.Add(10*time.Hour), 5*time.Minute, nil)
			got := append(before, after...)
			if types(got) != types(ref) || len(ref) != 2 {
				t.Fatalf("with a restart %s, without %s", types(got), types(ref))
			}
			hist, err := db2.History(context.Background(), time.Time{}, time.Time{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(hist) != 2 || hist[0].Type != alerts.Cleared || hist[1].Type != alerts.Fired || hist[1].Text != ref[0].Text {
				t.Errorf("history %+v", hist)
			}
		})
	}
}

// User rules survive a restart with their IDs; a deleted rule's ID is not
// given again.
func TestRulesPersist(t *testing.T) {
	c := &clock{jan1}
	db, path := newDB(t, c)
	e := newEngine(t, c, none(), db)
	ctx := context.Background()
	r1, err := e.Create(ctx, alerts.Rule{Name: "night air", Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: 1200, Clear: ptr(1000), For: 15 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := e.Create(ctx, alerts.Rule{Kind: alerts.Fall, Zone: "Indoor", Measurement: sensors.Pressure, Threshold: 3, Window: 3 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Delete(ctx, r2.ID); err != nil {
		t.Fatal(err)
	}
	db.Close()
	e2 := newEngine(t, c, none(), openDB(t, path, c))
	rules := e2.Rules()
	if len(rules) != 1 || rules[0].Describe() != r1.Describe() || rules[0].ID != "u1" {
		t.Fatalf("rules %+v", rules)
	}
	r3, err := e2.Create(ctx, alerts.Rule{Kind: alerts.Stale, Zone: "Rain", For: time.Hour})
	if err != nil || r3.ID != "u3" {
		t.Errorf("new rule %q, %v; want u3", r3.ID, err)
	}
}

// The history stays within its bound.
func TestHistoryBound(t *testing.T) {
	c := &clock{jan1}
	_, path := newDB(t, c)
	db, err := alerts.OpenDB(context.Background(), path, &alerts.DBOptions{MaxHistory: 10, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e := newEngine(t, c, none(), db)
	if _, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: 1200}); err != nil {
		t.Fatal(err)
	}
	var vs []float64
	for range 20 {
		vs = append(vs, 1300, 1000)
	}
	if evs := hover(t, e, c, "Bedroom", sensors.CO2, vs...); len(evs) != 40 {
		t.Fatalf("%d events", len(evs))
	}
	hist, err := db.History(context.Background(), time.Time{}, time.Time{}, 100)
	if err != nil || len(hist) != 10 {
		t.Errorf("%d events kept (%v), want 10", len(hist), err)
	}
}

// A database the history has not migrated is refused with what to do.
func TestOpenDBWithoutSchema(t *testing.T) {
	_, err := alerts.OpenDB(context.Background(), t.TempDir()+"/empty.db", nil)
	if err == nil || !errorsIs(err, alerts.ErrNoSchema) {
		t.Errorf("err %v, want ErrNoSchema", err)
	}
}
