package demo_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// airDays are days across the seasons, a weekday and a weekend day among
// them, and the days the clocks change.
func airDays(loc *time.Location) []time.Time {
	return []time.Time{
		time.Date(2025, 1, 15, 0, 0, 0, 0, loc), // Wednesday
		time.Date(2025, 3, 30, 0, 0, 0, 0, loc), // Sunday, spring forward
		time.Date(2025, 7, 19, 0, 0, 0, 0, loc), // Saturday
		time.Date(2025, 10, 26, 0, 0, 0, 0, loc),
		time.Date(2025, 12, 1, 0, 0, 0, 0, loc),
	}
}

// within reports whether at is in [from, to].
func within(at, from, to time.Time) bool { return !at.Before(from) && !at.After(to) }

// TestCookingSchedule checks the documented times and peaks of the
// episodes (air.go): breakfast starts 07:00…07:20 and lasts 10 minutes,
// dinner 18:00…18:40 and 40 minutes, the kitchen window opens 10 minutes
// after dinner for 20 minutes; the peaks above the background are within
// their documented ranges, and vary from day to day.
func TestCookingSchedule(t *testing.T) {
	loc := berlin(t)
	type spec struct {
		start, spread, length time.Duration
		pm, voc, nox          [2]float64
	}
	want := map[string]spec{
		"breakfast": {7 * time.Hour, 20 * time.Minute, 10 * time.Minute, [2]float64{30, 60}, [2]float64{180, 260}, [2]float64{0, 0}},
		"dinner":    {18 * time.Hour, 40 * time.Minute, 40 * time.Minute, [2]float64{60, 150}, [2]float64{250, 400}, [2]float64{30, 150}},
	}
	peaks := map[string]map[float64]bool{}
	for _, seed := range []int64{1, 2, 3} {
		h := demo.New(&demo.Options{Seed: seed, Location: loc})
		for _, midnight := range airDays(loc) {
			es := h.Episodes(midnight)
			if len(es) != 3 || es[0].Name != "breakfast" || es[1].Name != "dinner" || es[2].Name != "airing" {
				t.Fatalf("episodes %+v", es)
			}
			for _, e := range es[:2] {
				w := want[e.Name]
				name := fmt.Sprintf("seed %d %s %s", seed, midnight.Format(time.DateOnly), e.Name)
				wall := time.Date(e.Start.Year(), e.Start.Month(), e.Start.Day(), int(w.start.Hours()), 0, 0, 0, loc)
				if !within(e.Start, wall, wall.Add(w.spread)) || e.End.Sub(e.Start) != w.length {
					t.Errorf("%s: %s…%s, want a start in %s…%s and %v long", name, e.Start.Format("15:04:05"), e.End.Format("15:04:05"),
						wall.Format("15:04"), wall.Add(w.spread).Format("15:04"), w.length)
				}
				for _, c := range []struct {
					what string
					v    float64
					r    [2]float64
				}{{"PM2.5", e.PM25, w.pm}, {"VOC index", e.VOC, w.voc}, {"NOx index", e.NOx, w.nox}} {
					if c.v < c.r[0] || c.v > c.r[1] {
						t.Errorf("%s: %s peak %.1f, want %v…%v", name, c.what, c.v, c.r[0], c.r[1])
					}
				}
				if peaks[e.Name] == nil {
					peaks[e.Name] = map[float64]bool{}
				}
				peaks[e.Name][e.PM25] = true
			}
			dinner, airing := es[1], es[2]
			if airing.Start.Sub(dinner.End) != 10*time.Minute || airing.End.Sub(airing.Start) != 20*time.Minute {
				t.Errorf("seed %d %s: window open %s…%s after a dinner ending %s", seed, midnight.Format(time.DateOnly),
					airing.Start.Format("15:04:05"), airing.End.Format("15:04:05"), dinner.End.Format("15:04:05"))
			}
		}
	}
	for name, ps := range peaks {
		if len(ps) < 10 {
			t.Errorf("%s: %d different peaks over 15 days, want them to vary", name, len(ps))
		}
	}
}

// TestCookingEpisodes checks the readings around each meal: PM2.5, the VOC
// index and the NOx index rise to the episode's peak within minutes, are
// highest when the cooking stops, and are back near the background within
// the hour.
func TestCookingEpisodes(t *testing.T) {
	loc := berlin(t)
	for _, seed := range []int64{1, 2, 3} {
		h := demo.New(&demo.Options{Seed: seed, Location: loc})
		for _, midnight := range airDays(loc) {
			for _, e := range h.Episodes(midnight)[:2] {
				name := fmt.Sprintf("seed %d %s %s", seed, midnight.Format(time.DateOnly), e.Name)
				checkEpisode(t, name, h, e)
			}
		}
	}
}

func checkEpisode(t *testing.T, name string, h *demo.House, e demo.Episode) {
	t.Helper()
	pm := func(at time.Time) float64 { return value(t, h.At(at), "Indoor", sensors.PM25) }
	start, end := e.Start, e.End
	bg := pm(start)
	if early := pm(start.Add(5 * time.Minute)); early-bg < 0.6*e.PM25 {
		t.Errorf("%s: PM2.5 %v → %v µg/m³ 5 minutes in, want 60 %% of the peak of %.1f", name, bg, early, e.PM25)
	}
	var hi float64
	var hiAt time.Time
	for at := start; at.Before(end.Add(time.Hour)); at = at.Add(time.Minute) {
		if v := pm(at); v > hi {
			hi, hiAt = v, at
		}
	}
	if !within(hiAt, start.Add(5*time.Minute), end) || math.Abs(hi-bg-e.PM25) > 3 {
		t.Errorf("%s: PM2.5 peak %v µg/m³ at %s, want %.1f above %v by %s", name, hi, hiAt.Format("15:04"), e.PM25, bg, end.Format("15:04"))
	}
	rs := h.At(end)
	if voc := value(t, rs, "Indoor", sensors.VOCIndex); math.Abs(voc-e.VOC) > 10 {
		t.Errorf("%s: VOC index %v when the cooking stops, want %.0f ± 10", name, voc, e.VOC)
	}
	if nox := value(t, rs, "Indoor", sensors.NOxIndex); math.Abs(nox-1-e.NOx) > 1 {
		t.Errorf("%s: NOx index %v when the cooking stops, want 1 + %.0f", name, nox, e.NOx)
	}
	if later := pm(end.Add(time.Hour)); later-bg > 0.1*e.PM25+3 {
		t.Errorf("%s: PM2.5 still %v µg/m³ an hour after the cooking (%v before it)", name, later, bg)
	}
	if voc := value(t, h.At(end.Add(time.Hour)), "Indoor", sensors.VOCIndex); voc > 130 {
		t.Errorf("%s: VOC index still %v an hour after the cooking", name, voc)
	}
}

// TestWindowOpening checks the airing after dinner: while the kitchen
// window is open, CO2, PM2.5 and the VOC index fall towards the outdoor
// air and the room cools (more in winter); once it is shut, CO2 and the
// temperature come back.
func TestWindowOpening(t *testing.T) {
	loc := berlin(t)
	for _, seed := range []int64{1, 2, 3, 4} {
		h := demo.New(&demo.Options{Seed: seed, Location: loc})
		for _, midnight := range airDays(loc) {
			airing := h.Episodes(midnight)[2]
			name := fmt.Sprintf("seed %d %s", seed, midnight.Format(time.DateOnly))
			before, shut := h.At(airing.Start), h.At(airing.End)
			later := h.At(airing.End.Add(45 * time.Minute))
			get := func(rs []sensors.Reading, m sensors.Measurement) float64 { return value(t, rs, "Indoor", m) }
			coolest := 0.25 // °C in summer
			if midnight.Month() == time.January || midnight.Month() == time.December {
				coolest = 0.5
			}
			if b, s := get(before, sensors.Temperature), get(shut, sensors.Temperature); b-s < coolest {
				t.Errorf("%s: the open window takes the living room from %v to %v °C, want %v °C cooler", name, b, s, coolest)
			}
			if b, s, l := get(before, sensors.CO2), get(shut, sensors.CO2), get(later, sensors.CO2); b-s < 150 || l <= s {
				t.Errorf("%s: CO2 %v ppm when the window opens, %v when it is shut, %v 45 minutes later", name, b, s, l)
			}
			for _, m := range []sensors.Measurement{sensors.PM25, sensors.VOCIndex, sensors.NOxIndex} {
				if b, s := get(before, m), get(shut, m); s >= b {
					t.Errorf("%s: %s %v when the window opens, %v when it is shut", name, m, b, s)
				}
			}
			if b, s := get(before, sensors.VOCIndex), get(shut, sensors.VOCIndex); s > 100 || b < 150 {
				t.Errorf("%s: VOC index %v when the window opens, %v when it is shut: want it under the baseline of 100", name, b, s)
			}
		}
	}
}

// TestAirWeek checks a simulated week of the living room's air in minute
// steps: every value within the catalogue's range, the mass concentrations
// ordered PM1 ≤ PM2.5 ≤ PM4 ≤ PM10 at every instant, the VOC index around
// its baseline of 100 and the NOx index at 1 outside the gas cooking.
func TestAirWeek(t *testing.T) {
	loc := berlin(t)
	for _, start := range []time.Time{time.Date(2025, 1, 13, 0, 0, 0, 0, loc), time.Date(2025, 7, 14, 0, 0, 0, 0, loc)} {
		h := demo.New(&demo.Options{Seed: 21, Location: loc})
		var vocSum, minutes, noxUsual, pmSum float64
		eachMinute(h, start, start.AddDate(0, 0, 7), func(at time.Time, rs []sensors.Reading) {
			for _, r := range rs {
				if err := r.Measurement.Check(r.Value); err != nil {
					t.Errorf("%v %s: %v", at, r.Zone, err)
				}
			}
			pm := []float64{value(t, rs, "Indoor", sensors.PM1), value(t, rs, "Indoor", sensors.PM25),
				value(t, rs, "Indoor", sensors.PM4), value(t, rs, "Indoor", sensors.PM10)}
			if !(pm[0] <= pm[1] && pm[1] <= pm[2] && pm[2] <= pm[3]) || pm[0] <= 0 {
				t.Fatalf("%v: PM1 %v, PM2.5 %v, PM4 %v, PM10 %v µg/m³ are not ordered", at, pm[0], pm[1], pm[2], pm[3])
			}
			minutes++
			pmSum += pm[1]
			vocSum += value(t, rs, "Indoor", sensors.VOCIndex)
			if value(t, rs, "Indoor", sensors.NOxIndex) == 1 {
				noxUsual++
			}
		})
		name := start.Format(time.DateOnly)
		if mean := vocSum / minutes; mean < 95 || mean > 115 {
			t.Errorf("week of %s: mean VOC index %.1f, want about 100", name, mean)
		}
		if share := noxUsual / minutes; share < 0.85 || share > 0.99 {
			t.Errorf("week of %s: NOx index 1 in %.1f %% of the minutes, want all but the cooking's", name, 100*share)
		}
		if mean := pmSum / minutes; mean < 3 || mean > 20 {
			t.Errorf("week of %s: mean PM2.5 %.1f µg/m³", name, mean)
		}
	}
}
