package climate

import (
	"slices"
	"testing"
	"time"
)

// berlin is a zone with daylight saving.
var berlin = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return loc
}()

func TestLocalMidnight(t *testing.T) {
	cases := []struct {
		name string
		now  time.Time
		want string // UTC
	}{
		{"winter", time.Date(2026, 1, 15, 12, 0, 0, 0, berlin), "2026-01-14T23:00:00Z"},
		{"summer", time.Date(2026, 7, 15, 0, 30, 0, 0, berlin), "2026-07-14T22:00:00Z"},
		// 29 March 2026: clocks go from 02:00 CET to 03:00 CEST; the day
		// started at 00:00 CET.
		{"spring forward, after the change", time.Date(2026, 3, 29, 12, 0, 0, 0, berlin), "2026-03-28T23:00:00Z"},
		// 25 October 2026: clocks go from 03:00 CEST back to 02:00 CET; the
		// day started at 00:00 CEST.
		{"fall back, after the change", time.Date(2026, 10, 25, 23, 59, 0, 0, berlin), "2026-10-24T22:00:00Z"},
		{"just after midnight", time.Date(2026, 10, 26, 0, 0, 1, 0, berlin), "2026-10-25T23:00:00Z"},
		{"now given in UTC", time.Date(2026, 10, 24, 22, 30, 0, 0, time.UTC), "2026-10-24T22:00:00Z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := LocalMidnight(c.now, berlin).UTC().Format(time.RFC3339)
			if got != c.want {
				t.Errorf("LocalMidnight(%s) = %s, want %s", c.now, got, c.want)
			}
		})
	}
}

func TestExtremesAcrossMidnightAndDST(t *testing.T) {
	at := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.Unix()
	}
	// The fall-back day of 2026: local midnight is 2026-10-24T22:00Z and the
	// day lasts 25 hours.
	pts := []Point{
		{at("2026-10-24T21:30:00Z"), -5},  // 23:30 on the 24th: yesterday's, excluded
		{at("2026-10-24T22:00:00Z"), 4},   // 00:00 on the 25th: included
		{at("2026-10-25T00:30:00Z"), 2.5}, // 02:30 CEST
		{at("2026-10-25T01:30:00Z"), 2.5}, // 02:30 CET, the same wall time an hour later: a tie, the first wins
		{at("2026-10-25T13:00:00Z"), 9},
		{at("2026-10-25T22:59:00Z"), 9}, // 23:59 CET: a tie for the max, the first wins
	}
	now := time.Date(2026, 10, 25, 23, 59, 30, 0, berlin)
	lo, hi, ok := Extremes(pts, LocalMidnight(now, berlin).Unix())
	if !ok {
		t.Fatal("no extremes")
	}
	if lo != pts[2] {
		t.Errorf("min = %+v, want %+v", lo, pts[2])
	}
	if hi != pts[4] {
		t.Errorf("max = %+v, want %+v", hi, pts[4])
	}
	// After midnight, nothing of the previous day counts.
	next := time.Date(2026, 10, 26, 0, 0, 10, 0, berlin)
	if _, _, ok := Extremes(pts, LocalMidnight(next, berlin).Unix()); ok {
		t.Error("extremes of a new day with no readings yet should be absent")
	}
}

func linear(now int64, span, step int64, start, perHour float64) []Point {
	var pts []Point
	for t := now - span; t <= now; t += step {
		pts = append(pts, Point{T: t, V: start + perHour*float64(t-(now-span))/3600})
	}
	return pts
}

func TestTrend(t *testing.T) {
	const now = 1_800_000_000
	cases := []struct {
		name   string
		pts    []Point
		rule   TrendRule
		want   string
		wantOK bool
	}{
		{"above the threshold", linear(now, 3000, 600, 20, 0.6), TemperatureTrend, Up, true},
		{"exactly at the threshold: +0.5 °C/h", linear(now, 3600-600, 600, 20, 0.5), TemperatureTrend, Up, true},
		{"just below the threshold", linear(now, 3600-600, 600, 20, 0.4999), TemperatureTrend, Stable, true},
		{"temperature down at -0.5/h", linear(now, 3600-600, 600, 20, -0.5), TemperatureTrend, Down, true},
		{"flat", linear(now, 3000, 60, 21, 0), TemperatureTrend, Stable, true},
		{"pressure up 1 hPa in 3 h", linear(now, 3*3600-60, 60, 1010, 1.0/3), PressureTrend, Up, true},
		{"pressure 0.9 hPa in 3 h", linear(now, 3*3600-60, 60, 1010, 0.9/3), PressureTrend, Stable, true},
		{"pressure down", linear(now, 3*3600-60, 60, 1010, -0.5), PressureTrend, Down, true},
		{"one point", []Point{{now, 20}}, TemperatureTrend, "", false},
		{"span under half the window", linear(now, 1700, 100, 20, 5), TemperatureTrend, "", false},
		{"span exactly half the window", linear(now, 1800, 100, 20, 5), TemperatureTrend, Up, true},
		{"only old points", linear(now-7200, 3000, 60, 20, 5), TemperatureTrend, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := Trend(c.pts, now, c.rule)
			if got != c.want || ok != c.wantOK {
				t.Errorf("Trend = %q, %v; want %q, %v", got, ok, c.want, c.wantOK)
			}
		})
	}
}

func TestTrendWindowIsHalfOpen(t *testing.T) {
	const now = 1_800_000_000
	// A wild point exactly one window old must not count; one a second
	// younger must.
	base := linear(now, 2400, 600, 20, 0)
	old := append([]Point{{now - 3600, 30}}, base...)
	if got, _ := Trend(old, now, TemperatureTrend); got != Stable {
		t.Errorf("point at now-window counted: %s", got)
	}
	young := append([]Point{{now - 3599, 30}}, base...)
	if got, _ := Trend(young, now, TemperatureTrend); got != Down {
		t.Errorf("point at now-window+1s ignored: %s", got)
	}
}

func TestSumWindowEdges(t *testing.T) {
	const now = 1_800_000_000
	pts := []Point{
		{now - 86400, 100}, // exactly 24 h old: outside both windows
		{now - 86399, 1},
		{now - 3600, 10}, // exactly 1 h old: in the 24 h window only
		{now - 3599, 0.2},
		{now - 300, 0.3},
		{now, 0.5},
		{now + 1, 1000}, // in the future: ignored
	}
	if got, want := Sum(pts, now-3600, now), 1.0; !near(got, want) {
		t.Errorf("sum_rain_1 = %g, want %g", got, want)
	}
	if got, want := Sum(pts, now-86400, now), 12.0; !near(got, want) {
		t.Errorf("sum_rain_24 = %g, want %g", got, want)
	}
	if got := Sum(nil, now-3600, now); got != 0 {
		t.Errorf("sum of nothing = %g", got)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

// Merge keeps points in time order: newest appended, older placed, and at
// an instant with a value an amount adds up (two tips of a rain gauge in
// one second) and a gauge replaces.
func TestMerge(t *testing.T) {
	pts := func(tv ...float64) []Point {
		var out []Point
		for i := 0; i < len(tv); i += 2 {
			out = append(out, Point{T: int64(tv[i]), V: tv[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		name   string
		in     []Point
		p      Point
		amount bool
		want   []Point
	}{
		{"empty", nil, Point{T: 5, V: 1}, false, pts(5, 1)},
		{"newest", pts(1, 1, 2, 2), Point{T: 3, V: 3}, false, pts(1, 1, 2, 2, 3, 3)},
		{"first", pts(2, 2, 3, 3), Point{T: 1, V: 1}, false, pts(1, 1, 2, 2, 3, 3)},
		{"between", pts(1, 1, 3, 3), Point{T: 2, V: 2}, true, pts(1, 1, 2, 2, 3, 3)},
		{"gauge replaces", pts(1, 1, 2, 2), Point{T: 2, V: 7}, false, pts(1, 1, 2, 7)},
		{"amount adds", pts(1, 0.2, 2, 0.2), Point{T: 2, V: 0.2}, true, pts(1, 0.2, 2, 0.4)},
		{"amount adds before the newest", pts(1, 0.2, 2, 0.2), Point{T: 1, V: 0.3}, true, pts(1, 0.5, 2, 0.2)},
	} {
		if got := Merge(c.in, c.p, c.amount); !slices.Equal(got, c.want) {
			t.Errorf("%s: Merge(%v, %v) = %v, want %v", c.name, c.in, c.p, got, c.want)
		}
	}
}
