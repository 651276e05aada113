package history

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/climated/climated/sensors"
)

// DefaultWindow is how much of each series' recent past stays in memory: a
// local day can last 25 hours when daylight saving ends, and the rain sums
// look back 24 hours, so 26 hours covers every derivation.
const DefaultWindow = 26 * time.Hour

type seriesKey struct {
	zone string
	m    sensors.Measurement
}

// recent is one series' window of points, sorted by time, and its latest
// point (kept even when the window has emptied).
type recent struct {
	source string
	kind   sensors.Kind
	pts    []Point
	latest Point
}

// add merges p into the window: appended when it is the newest, placed in
// order otherwise; at an instant that already has a value an Amount adds up
// and a Gauge replaces.
func (r *recent) add(p Point, keep int64) {
	n := len(r.pts)
	i := n
	if n > 0 && p.T <= r.pts[n-1].T {
		i = sort.Search(n, func(i int) bool { return r.pts[i].T >= p.T })
	}
	switch {
	case i < n && r.pts[i].T == p.T:
		if r.kind == sensors.Amount {
			r.pts[i].V += p.V
		} else {
			r.pts[i].V = p.V
		}
	case i == n:
		r.pts = append(r.pts, p)
	default:
		r.pts = append(r.pts, Point{})
		copy(r.pts[i+1:], r.pts[i:])
		r.pts[i] = p
	}
	last := r.pts[len(r.pts)-1]
	if last.T >= r.latest.T {
		r.latest = last
	}
	// Drop what fell out of the window, measured from the newest point so
	// the window never depends on the wall clock.
	if cut := since(r.pts, r.latest.T-keep); len(cut) < len(r.pts) {
		r.pts = append(r.pts[:0], cut...)
	}
}

// live is the in-memory state of every series. Writers hold mu exclusively
// for the few microseconds of an add; the generation counter tells cached
// snapshots that they are out of date.
type live struct {
	mu     sync.RWMutex
	series map[seriesKey]*recent
	keep   int64
	gen    atomic.Uint64
}

func newLive(window time.Duration) *live {
	return &live{series: make(map[seriesKey]*recent), keep: int64(window / time.Second)}
}

// add merges rs and reports whether it created a series.
func (l *live) add(rs []sensors.Reading) (added bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range rs {
		k := seriesKey{r.Zone, r.Measurement}
		s := l.series[k]
		if s == nil {
			added = true
			info, _ := sensors.Lookup(r.Measurement)
			s = &recent{kind: info.Kind}
			l.series[k] = s
		}
		if r.Source != "" {
			s.source = r.Source
		}
		s.add(Point{T: r.Time.Unix(), V: r.Value}, l.keep)
	}
	l.gen.Add(1)
	return added
}

// load installs a series read back from the database at start-up.
func (l *live) load(k seriesKey, source string, pts []Point, latest Point) {
	info, _ := sensors.Lookup(k.m)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.series[k] = &recent{source: source, kind: info.Kind, pts: pts, latest: latest}
	l.gen.Add(1)
}
