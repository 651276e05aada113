package history

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// angleOff is how far apart two directions are, in degrees (0…180).
func angleOff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return math.Min(d, 360-d)
}

// TestDirectionMeansAsVectors: a wind that swings across north (350°,
// 10°, 340°, 20° …) averages to north in every tier (raw with recent, the
// 5-minute and the hourly rollups) and in the day's summary, not to the
// 180° an arithmetic mean makes; its summary has no extremes, its points
// no band. A wind between east and south (80°, 100°) still averages to
// 90°, and its series is not mixed with the other.
func TestDirectionMeansAsVectors(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	now := t0.Add(12*time.Hour + 30*time.Minute)
	swing := []float64{350, 10, 340, 20}
	n := int(now.Sub(t0) / time.Minute)
	rs := every("Garden", sensors.WindAngle, t0, n, time.Minute, func(i int) float64 { return swing[i%4] })
	rs = append(rs, every("Roof", sensors.WindAngle, t0, n, time.Minute, func(i int) float64 { return 80 + 20*float64(i%2) })...)
	s := storeWith(t, time.UTC, now, rs)
	// The last half hour is still in recent: compaction moves whole hours.
	var recent int
	if err := s.rdb.QueryRow("SELECT count(*) FROM recent").Scan(&recent); err != nil || recent == 0 {
		t.Fatalf("recent holds %d readings (%v): the test needs some there", recent, err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		tier          string
		raw, rollup5m time.Duration // retentions that make the tier answer
		from          time.Time
		step          time.Duration
	}{
		{"raw", 30 * 24 * time.Hour, 365 * 24 * time.Hour, now.Add(-3 * time.Hour), 20 * time.Minute},
		{"5-minute rollups", 2 * time.Hour, 365 * 24 * time.Hour, now.Add(-6 * time.Hour), time.Hour},
		{"hourly rollups", 2 * time.Hour, 4 * time.Hour, t0, 2 * time.Hour},
	} {
		s.opts.RawRetention, s.opts.RollupRetention = c.raw, c.rollup5m
		for zone, want := range map[string]float64{"Garden": 0, "Roof": 90} {
			out, err := s.Range(ctx, Query{Zone: zone, Measurement: sensors.WindAngle, From: c.from, To: now, Step: c.step})
			if err != nil {
				t.Fatal(err)
			}
			if out.Tier != c.tier || strings.Join(out.Columns, ",") != "t,mean" || len(out.Points) < 2 {
				t.Fatalf("%s: tier %q, columns %v, %d points; want %s, t and mean", zone, out.Tier, out.Columns, len(out.Points), c.tier)
			}
			for _, p := range out.Points {
				if len(p) != 2 || angleOff(p[1], want) > 0.05 || p[1] < 0 || p[1] >= 360 {
					t.Errorf("%s, %s: point %v, want a mean of %g°", c.tier, zone, p, want)
				}
			}
			sm := out.Summary
			js, _ := json.Marshal(sm)
			if angleOff(sm.Mean, want) > 0.05 || strings.Contains(string(js), "min") || !sm.Direction() {
				t.Errorf("%s, %s: summary %s, want a mean of %g° and no extremes", c.tier, zone, js, want)
			}
		}
	}
	s.opts.RawRetention, s.opts.RollupRetention = DefaultRawRetention, DefaultRollupRetention
	days, err := s.Daily(ctx, "Garden", t0, now)
	if err != nil || len(days) != 1 {
		t.Fatalf("daily: %v, %v", days, err)
	}
	if got := days[0].Measurements[string(sensors.WindAngle)]; angleOff(got.Mean, 0) > 0.05 || got.Count != n {
		t.Errorf("the day's wind direction: %+v, want a mean of 0° over %d readings", got, n)
	}
}

// TestForgetSplitsADirection: forgetting what came after a time inside a
// bucket rebuilds the bucket's vector sums from the readings it keeps, so
// its mean is theirs: 30° and 60° kept, 300° forgotten, make 45°.
func TestForgetSplitsADirection(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	now := t0.Add(3 * time.Hour)
	rs := every("Garden", sensors.WindAngle, t0, 3, time.Minute, func(i int) float64 { return []float64{30, 60, 300}[i] })
	s := storeWith(t, time.UTC, now, rs)
	ctx := context.Background()
	if _, err := s.Forget(ctx, t0.Add(90*time.Second), true); err != nil {
		t.Fatal(err)
	}
	s.opts.RawRetention = time.Hour // read from the 5-minute rollups
	out, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.WindAngle, From: t0, To: now, Step: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if out.Tier != "5-minute rollups" || out.Summary == nil || out.Summary.Count != 2 || angleOff(out.Summary.Mean, 45) > 0.05 {
		t.Errorf("after forgetting 300°: tier %q, summary %+v; want 2 readings with a mean of 45° from the 5-minute rollups", out.Tier, out.Summary)
	}
}
