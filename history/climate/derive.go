package climate

import (
	"math"
	"sort"
	"time"
)

// Point is one recorded value at a Unix time in seconds.
type Point struct {
	T int64
	V float64
}

// Trend words of the get_climate structure.
const (
	Up     = "up"
	Down   = "down"
	Stable = "stable"
)

// TrendRule says over which window a trend is judged and how large the change
// over that window must be to count as up or down.
type TrendRule struct {
	Window    time.Duration
	Threshold float64
}

// The trend rules of the get_climate structure: temperature over 1 hour,
// ±0.5 °C; sea-level pressure over 3 hours, ±1.0 hPa (the meteorological
// "steady" band).
var (
	TemperatureTrend = TrendRule{Window: time.Hour, Threshold: 0.5}
	PressureTrend    = TrendRule{Window: 3 * time.Hour, Threshold: 1.0}
)

// since returns the suffix of pts (sorted by time) with T >= t.
func since(pts []Point, t int64) []Point {
	i := sort.Search(len(pts), func(i int) bool { return pts[i].T >= t })
	return pts[i:]
}

// Merge puts p into pts (sorted by time) and returns them: appended when
// it is the newest, placed in order otherwise; at an instant that already
// has a value an amount adds up and a gauge replaces.
func Merge(pts []Point, p Point, amount bool) []Point {
	n := len(pts)
	i := n
	if n > 0 && p.T <= pts[n-1].T {
		i = sort.Search(n, func(i int) bool { return pts[i].T >= p.T })
	}
	switch {
	case i < n && pts[i].T == p.T && amount:
		pts[i].V += p.V
	case i < n && pts[i].T == p.T:
		pts[i].V = p.V
	case i == n:
		pts = append(pts, p)
	default:
		pts = append(pts, Point{})
		copy(pts[i+1:], pts[i:])
		pts[i] = p
	}
	return pts
}

// between returns the points with from < T <= to.
func between(pts []Point, from, to int64) []Point {
	lo := sort.Search(len(pts), func(i int) bool { return pts[i].T > from })
	hi := sort.Search(len(pts), func(i int) bool { return pts[i].T > to })
	if hi < lo {
		return nil
	}
	return pts[lo:hi]
}

// Extremes returns the lowest and highest points at or after since, each the
// earliest point that reached its value; ok is false when there is none.
func Extremes(pts []Point, from int64) (lo, hi Point, ok bool) {
	pts = since(pts, from)
	if len(pts) == 0 {
		return Point{}, Point{}, false
	}
	lo, hi = pts[0], pts[0]
	for _, p := range pts[1:] {
		if p.V < lo.V {
			lo = p
		}
		if p.V > hi.V {
			hi = p
		}
	}
	return lo, hi, true
}

// Trend judges the points in (now-window, now] by rule: the least-squares
// slope times the window is the change over the window, Up when at least
// the threshold, Down when at most minus it, Stable otherwise. ok is false
// when the points are fewer than two or span less than half the window:
// the key is then left out rather than guessed.
func Trend(pts []Point, now int64, rule TrendRule) (word string, ok bool) {
	w := int64(rule.Window / time.Second)
	pts = between(pts, now-w, now)
	if len(pts) < 2 || 2*(pts[len(pts)-1].T-pts[0].T) < w {
		return "", false
	}
	// Least squares over times relative to the first point keeps the sums small.
	n := float64(len(pts))
	var st, sv, stt, stv float64
	for _, p := range pts {
		t := float64(p.T - pts[0].T)
		st += t
		sv += p.V
		stt += t * t
		stv += t * p.V
	}
	den := n*stt - st*st
	if den == 0 {
		return "", false
	}
	slope := (n*stv - st*sv) / den
	// Rounded to micro-units so that a change exactly at the threshold is
	// judged the same whatever the floating-point noise of the sums.
	change := math.Round(slope*float64(w)*1e6) / 1e6
	switch {
	case change >= rule.Threshold:
		return Up, true
	case change <= -rule.Threshold:
		return Down, true
	default:
		return Stable, true
	}
}

// Sum adds the values of the points in (from, to].
func Sum(pts []Point, from, to int64) float64 {
	var s float64
	for _, p := range between(pts, from, to) {
		s += p.V
	}
	return s
}

// LocalMidnight returns the start of the local day that contains t.
func LocalMidnight(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return DayStart(y, m, d, loc)
}

// DayStart is the first instant of the local date y-m-d in loc (y, m and
// d normalised as time.Date does). That is midnight, except where the
// clocks jump past midnight: on 2026-09-06 in America/Santiago they go
// from 00:00 to 01:00, and the day starts at 01:00. time.Date gives a
// time on the day before for a midnight that does not exist; the day
// then starts where the zone's period of that time ends.
func DayStart(y int, m time.Month, d int, loc *time.Location) time.Time {
	y, m, d = time.Date(y, m, d, 12, 0, 0, 0, time.UTC).Date()
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	ty, tm, td := t.Date()
	sameDay := ty == y && tm == m && td == d
	if sameDay && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t
	}
	start, end := t.ZoneBounds()
	switch {
	case !sameDay && !end.IsZero():
		return end // t is on the day before: the day starts at the jump
	case sameDay && !start.IsZero():
		return start // t is after the jump: the day starts at it
	}
	return t
}
