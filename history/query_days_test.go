package history

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// yearHouse is a year and a bit of a garden every 20 minutes from start:
// a temperature that changes with the hour and the day of the year, the
// wind turning round, and rain each afternoon hour of even days (the
// hour's number less 12, in fifths of a millimetre).
func yearHouse(start time.Time) []sensors.Reading {
	const n, step = 370 * 72, 20 * time.Minute
	at := func(i int) time.Time { return start.Add(time.Duration(i) * step) }
	rs := every("Garden", sensors.Temperature, start, n, step, func(i int) float64 {
		h, d := float64(at(i).Hour())+float64(at(i).Minute())/60, float64(at(i).YearDay())
		return math.Round((10+8*math.Sin(d/58)+5*math.Sin((h-9)/24*2*math.Pi)+float64(i%5)/10)*10) / 10
	})
	rs = append(rs, every("Garden", sensors.WindAngle, start, n, step, func(i int) float64 { return float64((i * 13) % 360) })...)
	for i := range n {
		if t := at(i); t.YearDay()%2 == 0 && t.Minute() == 0 && t.Hour() >= 13 && t.Hour() < 16 {
			rs = append(rs, sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.2 * float64(t.Hour()-12), Time: t, Source: "test"})
		}
	}
	return rs
}

// TestYearInLocalDays: a year asked at a step of a day is answered in
// the hub's local days, from the daily summaries: one point per day at
// its local midnight (the 23- and 25-hour days of Berlin among them),
// each day's mean, lowest and highest as Daily gives them, the rain its
// day's total, today's from the tiers, and a summary over the days.
func TestYearInLocalDays(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	ctx := context.Background()
	start := time.Date(2025, 11, 28, 0, 0, 0, 0, berlin)
	now := time.Date(2026, 12, 2, 15, 30, 0, 0, berlin)
	s := storeWith(t, berlin, now, yearHouse(start))
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	if n := keptCount(t, s, "Garden"); n < 360 {
		t.Fatalf("%d days kept; want the year's", n)
	}
	from := now.Add(-365 * 24 * time.Hour)
	days, err := s.Daily(ctx, "Garden", from, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []sensors.Measurement{sensors.Temperature, sensors.Rain, sensors.WindAngle} {
		res, err := s.Range(ctx, Query{Zone: "Garden", Measurement: m, From: from, To: now, Days: true, MaxPoints: MaxPoints})
		if err != nil {
			t.Fatal(err)
		}
		if res.Step != "1d" || res.Tier != "daily summaries" || res.From != days[0].start(t, berlin) {
			t.Errorf("%s: step %q, tier %q, from %d; want 1d, daily summaries, from the first day's midnight", m, res.Step, res.Tier, res.From)
		}
		if m == sensors.Rain {
			checkRainDays(t, res, days, berlin)
			continue
		}
		checkDays(t, res, days, berlin)
	}
}

func (d Day) start(t *testing.T, loc *time.Location) int64 {
	t.Helper()
	day, err := time.ParseInLocation(time.DateOnly, d.Date, loc)
	if err != nil {
		t.Fatal(err)
	}
	return day.Unix()
}

// checkDays holds res, a year of temperature or wind in local days, to
// days, Daily's.
func checkDays(t *testing.T, res *Series, days []Day, loc *time.Location) {
	t.Helper()
	m := string(res.Measurement)
	if len(res.Points) != 366 || len(days) != 366 {
		t.Fatalf("%s: %d points, %d days; want 366 (today the 366th)", m, len(res.Points), len(days))
	}
	var short, long bool
	for i, p := range res.Points {
		at, st := time.Unix(int64(p[0]), 0).In(loc), days[i].Measurements[m]
		if at.Hour() != 0 || at.Minute() != 0 || at.Format(time.DateOnly) != days[i].Date {
			t.Fatalf("%s: point %d at %s; want the local midnight of %s", m, i, at, days[i].Date)
		}
		want := []float64{p[0], st.Mean, st.Min, st.Max}[:len(p)]
		if !slices.Equal(p, want) {
			t.Fatalf("%s on %s: point %v; want Daily's (mean, min, max) %v", m, days[i].Date, p, want)
		}
		hours := at.AddDate(0, 0, 1).Sub(at).Hours()
		short, long = short || hours == 23, long || hours == 25
	}
	if !short || !long {
		t.Errorf("%s: the days have no 23-hour and 25-hour day among them", m)
	}
	if sm := res.Summary; m == string(sensors.Temperature) && (sm == nil || sm.Min != lowest(days, m) || sm.Count != countOf(days, m)) {
		t.Errorf("the year's summary %+v; want the lowest of the days, %v, over %d readings", sm, lowest(days, m), countOf(days, m))
	}
}

// checkRainDays holds res, a year of rain in local days, to days: a
// point for each day with rain, at its midnight, with the day's total,
// and the year's total.
func checkRainDays(t *testing.T, res *Series, days []Day, loc *time.Location) {
	t.Helper()
	var wet []Day
	var total float64
	for _, d := range days {
		if r, ok := d.Measurements["Rain"]; ok {
			wet, total = append(wet, d), total+*r.Sum
		}
	}
	if len(res.Points) != len(wet) || len(wet) < 180 {
		t.Fatalf("%d points of rain; want the %d days with rain", len(res.Points), len(wet))
	}
	for i, p := range res.Points {
		if want := []float64{float64(wet[i].start(t, loc)), *wet[i].Measurements["Rain"].Sum}; !slices.Equal(p, want) {
			t.Fatalf("rain on %s: point %v; want the day's %v", wet[i].Date, p, want)
		}
	}
	if res.Summary == nil || *res.Summary.Sum != math.Round(total*10)/10 {
		t.Errorf("the year's rain %+v; want %.1f mm", res.Summary, total)
	}
}

func lowest(days []Day, m string) float64 {
	lo := math.Inf(1)
	for _, d := range days {
		lo = min(lo, d.Measurements[m].Min)
	}
	return lo
}

func countOf(days []Day, m string) int {
	n := 0
	for _, d := range days {
		n += d.Measurements[m].Count
	}
	return n
}
