package alerts_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// clock is the fake clock the tests move.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

var demoZones = []string{"Indoor", "Bedroom", "Balcony", "Rain"}

// newDB migrates a fresh history file (history.Open runs 004_alerts) and
// opens the alert tables on it, beside the history's writer as the hub has them.
func newDB(t *testing.T, c *clock) (*alerts.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "climate.db")
	st, err := history.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	return openDB(t, path, c), path
}

func openDB(t *testing.T, path string, c *clock) *alerts.DB {
	t.Helper()
	db, err := alerts.OpenDB(context.Background(), path, &alerts.DBOptions{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newEngine(t testing.TB, c *clock, house *alerts.HouseConfig, store alerts.Store) *alerts.Engine {
	t.Helper()
	e, err := alerts.New(context.Background(), &alerts.Options{Zones: demoZones, House: house, Store: store, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// only is a house configuration with every rule off but the named one.
func only(key string, edit func(*alerts.HouseRule)) *alerts.HouseConfig {
	h := alerts.DefaultHouse()
	rules := map[string]*alerts.HouseRule{"mould": &h.Mould, "condensation": &h.Condensation, "co2": &h.CO2,
		"frost": &h.Frost, "storm": &h.Storm, "silent": &h.Silent, "battery": &h.Battery}
	for k, r := range rules {
		r.Enabled = k == key
	}
	if edit != nil {
		edit(rules[key])
	}
	return &h
}

func none() *alerts.HouseConfig { return only("", nil) }

// drive feeds the demo house's readings from..to every step (the clock at
// each reading's time), changed by edit when it is not nil, ticking every
// minute, and returns the events.
func drive(t *testing.T, e *alerts.Engine, c *clock, h *demo.House, from, to time.Time, step time.Duration, edit func([]sensors.Reading) []sensors.Reading) []alerts.Event {
	t.Helper()
	var out []alerts.Event
	for at := from; !at.After(to); at = at.Add(step) {
		c.t = at
		rs := h.At(at)
		if edit != nil {
			rs = edit(rs)
		}
		evs, err := e.Observe(context.Background(), rs)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, evs...)
		evs, err = e.Tick(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, evs...)
	}
	return out
}

func house() *demo.House { return demo.New(&demo.Options{Seed: 1, Location: time.UTC}) }

func ptr(v float64) *float64 { return &v }

func errorsIs(err, target error) bool { return errors.Is(err, target) }
