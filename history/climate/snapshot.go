package climate

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/climated/climated/sensors"
)

// Snapshot is the structure at one instant, with its JSON encoding made
// once for every caller. Its maps must not be modified.
type Snapshot struct {
	Time    time.Time
	Climate Structure
	JSON    []byte
	// Times is, for each zone and measurement, the Unix time of the
	// measurement's latest reading (When is only the newest of them).
	Times map[string]map[string]int64
	// Simulated is, for each zone, its measurements whose series is
	// simulated (sensors.Simulated: the demo house's), sorted; a zone
	// without one has no entry.
	Simulated map[string][]string

	gen uint64
}

func round(m sensors.Measurement, v float64) float64 { return m.Round(v, 0) }

// Snapshot returns the structure as it stands now. It is rebuilt only when
// a reading has arrived or the clock has moved to another second since the
// last one, which is as often as it can change.
func (l *Live) Snapshot() *Snapshot {
	now := l.opts.Now()
	if sn := l.snap.Load(); sn != nil && sn.gen == l.gen.Load() && sn.Time.Unix() == now.Unix() {
		return sn
	}
	l.snapMu.Lock()
	defer l.snapMu.Unlock()
	if sn := l.snap.Load(); sn != nil && sn.gen == l.gen.Load() && sn.Time.Unix() == now.Unix() {
		return sn
	}
	c, times, sims, gen := l.shape(now)
	data, err := json.Marshal(c)
	if err != nil {
		// Every value is a finite number, an integer or a string: a failure
		// here is a bug, and an empty object is the honest fallback.
		l.opts.Logger.Error("encode climate", "err", err)
		data = []byte("{}")
	}
	sn := &Snapshot{Time: now, Climate: c, JSON: data, Times: times, Simulated: sims, gen: gen}
	l.snap.Store(sn)
	return sn
}

// shape builds the structure from the live state as it stands at now.
func (l *Live) shape(now time.Time) (Structure, map[string]map[string]int64, map[string][]string, uint64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	gen := l.gen.Load()
	sec := now.Unix()
	midnight := LocalMidnight(now, l.opts.Location).Unix()
	c := make(Structure)
	times := make(map[string]map[string]int64)
	sims := make(map[string][]string)
	h := NewestCurrent(now)
	for k, s := range l.series {
		// Only what is current: points ahead of the clock wait for it.
		pts := upTo(s.pts, h)
		if len(pts) == 0 {
			continue
		}
		latest := pts[len(pts)-1]
		z := c[k.zone]
		if z == nil {
			z = make(map[string]any)
			c[k.zone] = z
			times[k.zone] = make(map[string]int64)
		}
		times[k.zone][string(k.m)] = latest.T
		if sensors.Simulated(s.source) {
			sims[k.zone] = append(sims[k.zone], string(k.m))
		}
		if when, ok := z[sensors.KeyWhen].(int64); !ok || latest.T > when {
			z[sensors.KeyWhen] = latest.T
		}
		z[string(k.m)] = round(k.m, latest.V)
		derive(z, k.m, pts, sec, midnight)
	}
	for zone, z := range c {
		l.deriveZone(z, zone, h, midnight)
	}
	for _, ms := range sims {
		slices.Sort(ms)
	}
	return c, times, sims, gen
}

// derive adds to zone z the keys that measurement m brings with it, from
// its window pts at sec; deriveZone (weather.go) those that need several
// of the zone's measurements. They are the only places that know them.
func derive(z map[string]any, m sensors.Measurement, pts []Point, sec, midnight int64) {
	switch m {
	case sensors.Temperature:
		if lo, hi, ok := Extremes(pts, midnight); ok {
			z[sensors.KeyMinTemp] = round(m, lo.V)
			z[sensors.KeyMaxTemp] = round(m, hi.V)
			z[sensors.KeyDateMinTemp] = lo.T
			z[sensors.KeyDateMaxTemp] = hi.T
		}
		if w, ok := Trend(pts, sec, TemperatureTrend); ok {
			z[sensors.KeyTempTrend] = w
		}
	case sensors.Pressure:
		if w, ok := Trend(pts, sec, PressureTrend); ok {
			z[sensors.KeyPressureTrend] = w
		}
	case sensors.Rain:
		z[sensors.KeySumRain1] = round(m, Sum(pts, sec-3600, sec))
		z[sensors.KeySumRain24] = round(m, Sum(pts, sec-86400, sec))
	case sensors.Lightning:
		z[sensors.KeySumLightning1] = round(m, Sum(pts, sec-3600, sec))
		z[sensors.KeySumLightning24] = round(m, Sum(pts, sec-86400, sec))
	}
}

// Readings shapes readings taken once (climated read) into the structure:
// each zone's latest value of every measurement and When, with the keys
// derived from them (a single reading has no trend).
func Readings(rs []sensors.Reading, loc *time.Location) *Snapshot {
	var latest time.Time
	for _, r := range rs {
		if r.Time.After(latest) {
			latest = r.Time
		}
	}
	l := New(&Options{Location: loc, Now: func() time.Time { return latest }})
	l.Add(rs)
	return l.Snapshot()
}
