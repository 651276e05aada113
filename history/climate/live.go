package climate

import (
	"log/slog"
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

// Options configure a Live; nil means all defaults.
type Options struct {
	Window   time.Duration    // recent past kept per series (DefaultWindow)
	Location *time.Location   // local time for "since midnight"; nil means time.Local
	Now      func() time.Time // clock; nil means time.Now
	Logger   *slog.Logger     // nil discards
}

// Window is one series' recent past, as storage reads it back at start-up:
// its points in time order up to NewestCurrent (none ahead of the clock) and
// the latest of them.
type Window struct {
	Zone        string
	Measurement sensors.Measurement
	Source      string
	Points      []Point
	Latest      Point
}

type seriesKey struct {
	zone string
	m    sensors.Measurement
}

// Live is the in-memory state of every series. Writers hold mu exclusively
// for the few microseconds of an add; the generation counter tells cached
// snapshots that they are out of date. It is safe for concurrent use.
type Live struct {
	opts   Options
	mu     sync.RWMutex
	series map[seriesKey]*recent
	window int64 // seconds: opts.Window
	gen    atomic.Uint64

	snap   atomic.Pointer[Snapshot]
	snapMu sync.Mutex
}

// New returns an empty Live.
func New(opts *Options) *Live {
	l := &Live{series: make(map[seriesKey]*recent)}
	if opts != nil {
		l.opts = *opts
	}
	if l.opts.Window <= 0 {
		l.opts.Window = DefaultWindow
	}
	if l.opts.Location == nil {
		l.opts.Location = time.Local
	}
	if l.opts.Now == nil {
		l.opts.Now = time.Now
	}
	if l.opts.Logger == nil {
		l.opts.Logger = slog.New(slog.DiscardHandler)
	}
	l.window = int64(l.opts.Window / time.Second)
	return l
}

// Added is what Add made of a batch.
type Added struct {
	// Kept are the readings the series took, in the batch's order: the
	// claim (sensors.Claim) skipped the others, a simulated reading of a
	// measured series. They alone are the house's.
	Kept []sensors.Reading
	// Taken are the series a measured reading took from the demo: their
	// simulated points were dropped before it.
	Taken []Series
	// New says whether a series was created.
	New bool
}

// Series names one zone's measurement.
type Series struct {
	Zone        string
	Measurement sensors.Measurement
}

// Add merges rs (valid readings) by the claim of each series (a series is
// simulated or measured, never both: sensors.Claim) and says what it took.
func (l *Live) Add(rs []sensors.Reading) Added {
	h := NewestCurrent(l.opts.Now())
	l.mu.Lock()
	defer l.mu.Unlock()
	a := Added{Kept: make([]sensors.Reading, 0, len(rs))}
	for _, r := range rs {
		k := seriesKey{r.Zone, r.Measurement}
		s := l.series[k]
		if s == nil {
			a.New = true
			info, _ := sensors.Lookup(r.Measurement)
			s = &recent{kind: info.Kind}
			l.series[k] = s
		}
		skip, reset := sensors.Claim(s.source, r.Source)
		if skip {
			continue
		}
		if reset {
			s.pts = nil
			a.Taken = append(a.Taken, Series{r.Zone, r.Measurement})
		}
		if r.Source != "" {
			s.source = r.Source
		}
		s.add(Point{T: r.Time.Unix(), V: r.Value}, l.window, h)
		a.Kept = append(a.Kept, r)
	}
	l.gen.Add(1)
	return a
}

// Load installs series read back from storage, replacing what Live held
// of them, and returns those that changed hands: a measured source holds
// now a series Live knew as simulated (sensors.Claim would reset it).
func (l *Live) Load(ws ...Window) (taken []Series) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, w := range ws {
		if old := l.series[seriesKey{w.Zone, w.Measurement}]; old != nil {
			if _, reset := sensors.Claim(old.source, w.Source); reset {
				taken = append(taken, Series{w.Zone, w.Measurement})
			}
		}
		info, _ := sensors.Lookup(w.Measurement)
		pts := w.Points
		if len(pts) == 0 && w.Latest.T != 0 {
			pts = []Point{w.Latest}
		}
		l.series[seriesKey{w.Zone, w.Measurement}] = &recent{source: w.Source, kind: info.Kind, pts: pts}
	}
	l.gen.Add(1)
	return taken
}

// Latest returns the time of the newest current reading of any series
// (none ahead of the clock), or the zero time when there is none.
func (l *Live) Latest() time.Time {
	h := NewestCurrent(l.opts.Now())
	l.mu.RLock()
	defer l.mu.RUnlock()
	var t int64
	for _, r := range l.series {
		if p, ok := r.latest(h); ok {
			t = max(t, p.T)
		}
	}
	if t == 0 {
		return time.Time{}
	}
	return time.Unix(t, 0)
}

// Zones lists the zones that have current readings, sorted.
func (l *Live) Zones() []string {
	h := NewestCurrent(l.opts.Now())
	l.mu.RLock()
	defer l.mu.RUnlock()
	seen := map[string]bool{}
	var zs []string
	for k, r := range l.series {
		if _, ok := r.latest(h); ok && !seen[k.zone] {
			seen[k.zone] = true
			zs = append(zs, k.zone)
		}
	}
	sort.Strings(zs)
	return zs
}

// recent is one series' window of points, sorted by time. Its tail may be
// ahead of the clock (points the clock went back behind): they wait there
// until it reaches them.
type recent struct {
	source string
	kind   sensors.Kind
	pts    []Point
}

// latest returns the newest point at or before h (NewestCurrent).
func (r *recent) latest(h int64) (Point, bool) {
	cur := upTo(r.pts, h)
	if len(cur) == 0 {
		return Point{}, false
	}
	return cur[len(cur)-1], true
}

// add merges p into the window: appended when it is the newest, placed in
// order otherwise; at an instant that already has a value an Amount adds up
// and a Gauge replaces. window is its length in seconds; h is the newest
// current time (NewestCurrent): a point after it stays but does not move the
// window.
func (r *recent) add(p Point, window, h int64) {
	r.pts = Merge(r.pts, p, r.kind == sensors.Amount)
	// Drop what fell out of the window, measured from the newest current
	// point: a window measured from the wall clock would empty while a
	// source is silent, and one measured from a point ahead of the clock
	// would drop every real reading.
	last, ok := r.latest(h)
	if !ok {
		return
	}
	if cut := since(r.pts, last.T-window); len(cut) < len(r.pts) {
		r.pts = append(r.pts[:0], cut...)
	}
}

// Points returns a copy of the current points of zone's m after from
// (Unix seconds) that the window holds, in time order.
func (l *Live) Points(zone string, m sensors.Measurement, from int64) []Point {
	h := NewestCurrent(l.opts.Now())
	l.mu.RLock()
	defer l.mu.RUnlock()
	s := l.series[seriesKey{zone, m}]
	if s == nil {
		return nil
	}
	return append([]Point(nil), between(s.pts, from, h)...)
}

// Drop removes the series of zone and measurement from the live
// structure: their readings are no more (a source forgotten).
func (l *Live) Drop(zone string, m sensors.Measurement) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.series, seriesKey{zone, m})
	l.gen.Add(1)
}
