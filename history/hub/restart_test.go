package hub

import (
	"context"
	"math"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// rainySeed finds a demo house that rained in the 24 hours before end, so
// the rain sums the test compares are not trivially zero.
func rainySeed(t *testing.T, loc *time.Location, end time.Time) (*demo.House, float64) {
	for seed := int64(1); seed <= 200; seed++ {
		h := demo.New(&demo.Options{Seed: seed, Location: loc})
		var sum float64
		for ts := end.Add(-24*time.Hour + demo.RainInterval); !ts.After(end); ts = ts.Add(demo.RainInterval) {
			for _, r := range h.At(ts) {
				if r.Measurement == sensors.Rain {
					sum += r.Value
				}
			}
		}
		if sum > 0 {
			return h, sum
		}
	}
	t.Fatal("no demo seed in 1…200 rained that day")
	return nil, 0
}

// TestRestartKeepsDerivations records a simulated day and a bit (across the
// October daylight-saving change), reopens the database and expects the same
// structure, and checks the derivations against values computed directly
// from the demo house.
func TestRestartKeepsDerivations(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	end := time.Date(2026, 10, 25, 18, 0, 0, 0, loc)
	house, wantRain24 := rainySeed(t, loc, end)
	path := filepath.Join(t.TempDir(), "h.db")
	opts := &history.Options{Now: testutil.FixedClock(end), Location: loc}
	ctx := context.Background()

	s, err := Open(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := house.Backfill(ctx, s, end.Add(-30*time.Hour), end.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	before := s.Snapshot().Climate
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	s2 := openTest(t, path, opts)
	after := s2.Snapshot().Climate
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("after restart:\n%v\nbefore:\n%v", after, before)
	}

	// Independent expectations, minute by minute from the house itself.
	midnight := time.Date(2026, 10, 25, 0, 0, 0, 0, loc)
	lo, hi := math.Inf(1), math.Inf(-1)
	var loAt, hiAt int64
	for ts := midnight; !ts.After(end); ts = ts.Add(time.Minute) {
		for _, r := range house.At(ts) {
			if r.Zone != "Balcony" || r.Measurement != sensors.Temperature {
				continue
			}
			if r.Value < lo {
				lo, loAt = r.Value, ts.Unix()
			}
			if r.Value > hi {
				hi, hiAt = r.Value, ts.Unix()
			}
		}
	}
	b := after["Balcony"]
	if b[sensors.KeyMinTemp] != lo || b[sensors.KeyMaxTemp] != hi || b[sensors.KeyDateMinTemp] != loAt || b[sensors.KeyDateMaxTemp] != hiAt {
		t.Errorf("Balcony extremes = %v at %v, %v at %v; want %v at %d, %v at %d",
			b[sensors.KeyMinTemp], b[sensors.KeyDateMinTemp], b[sensors.KeyMaxTemp], b[sensors.KeyDateMaxTemp], lo, loAt, hi, hiAt)
	}
	if got := after["Rain"][sensors.KeySumRain24]; got != round(sensors.Rain, wantRain24) {
		t.Errorf("sum_rain_24 = %v, want %v", got, round(sensors.Rain, wantRain24))
	}
	for _, zone := range []string{"Indoor", "Bedroom", "Balcony"} {
		if _, ok := after[zone][sensors.KeyTempTrend]; !ok {
			t.Errorf("%s has no temp_trend", zone)
		}
	}
	if _, ok := after["Indoor"][sensors.KeyPressureTrend]; !ok {
		t.Error("Indoor has no pressure_trend")
	}
	if got := after["Indoor"][sensors.KeyWhen]; got != end.Unix() {
		t.Errorf("When = %v, want %d", got, end.Unix())
	}
}
