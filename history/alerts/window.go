package alerts

import "time"

// point is one value at a Unix time in seconds.
type point struct {
	t int64
	v float64
}

// series keeps the points of one measurement of one zone over the longest
// window of the rate rules that watch it.
type series struct{ pts []point }

// add appends p (dropping it when it is not newer than the last point)
// and drops the points more than window before it.
func (s *series) add(p point, window time.Duration) {
	if n := len(s.pts); n > 0 && p.t <= s.pts[n-1].t {
		return
	}
	s.pts = append(s.pts, p)
	cut := p.t - int64(window/time.Second)
	i := 0
	for i < len(s.pts) && s.pts[i].t <= cut {
		i++
	}
	if i > 0 {
		s.pts = append(s.pts[:0], s.pts[i:]...)
	}
}

// Change is the change of a measurement over the window w ending at now, as
// the trend of the get_climate structure judges it (history/derive.go):
// the least-squares slope of the points in (now−w, now] times w. A single
// noisy reading moves it little, a steady fall moves it fully. ok is false
// when the window holds fewer than two points or they span less than half
// of it, so a rule never fires on a window it has barely seen.
func (s *series) change(now int64, w time.Duration) (float64, bool) {
	sec := int64(w / time.Second)
	i := len(s.pts)
	for i > 0 && s.pts[i-1].t > now-sec {
		i--
	}
	pts := s.pts[i:]
	for len(pts) > 0 && pts[len(pts)-1].t > now {
		pts = pts[:len(pts)-1]
	}
	if len(pts) < 2 || 2*(pts[len(pts)-1].t-pts[0].t) < sec {
		return 0, false
	}
	var n, st, sv, stt, stv float64
	for _, p := range pts {
		x := float64(p.t - pts[0].t)
		n++
		st += x
		sv += p.v
		stt += x * x
		stv += x * p.v
	}
	den := n*stt - st*st
	if den == 0 {
		return 0, false
	}
	return (n*stv - st*sv) / den * float64(sec), true
}
