package history

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/climated/climated/sensors"
)

// Climate is the get_climate structure: zone name → key → value, where a
// value is a float64 (a measurement), an int64 (a Unix time) or a trend word.
type Climate map[string]map[string]any

// Snapshot is the structure at one instant, with its JSON encoding made
// once for every caller.
type Snapshot struct {
	Time    time.Time
	Climate Climate
	JSON    []byte

	gen   uint64
	times map[string]map[string]int64 // zone → measurement → its latest reading's Unix time
}

// Keys of the structure that history derives rather than records.
const (
	KeyMinTemp       = "min_temp"
	KeyMaxTemp       = "max_temp"
	KeyDateMinTemp   = "date_min_temp"
	KeyDateMaxTemp   = "date_max_temp"
	KeyTempTrend     = "temp_trend"
	KeyPressureTrend = "pressure_trend"
	KeySumRain1      = "sum_rain_1"
	KeySumRain24     = "sum_rain_24"
	KeyWhen          = "When"
)

func round(m sensors.Measurement, v float64) float64 { return m.Round(v, 0) }

// shape builds the structure from the live state as it stands at now. It is
// the only place that knows which keys a measurement brings with it.
func (l *live) shape(now time.Time, loc *time.Location) (Climate, map[string]map[string]int64, uint64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	gen := l.gen.Load()
	sec := now.Unix()
	midnight := LocalMidnight(now, loc).Unix()
	c := make(Climate)
	times := make(map[string]map[string]int64)
	for k, s := range l.series {
		z := c[k.zone]
		if z == nil {
			z = make(map[string]any)
			c[k.zone] = z
			times[k.zone] = make(map[string]int64)
		}
		times[k.zone][string(k.m)] = s.latest.T
		if when, ok := z[KeyWhen].(int64); !ok || s.latest.T > when {
			z[KeyWhen] = s.latest.T
		}
		z[string(k.m)] = round(k.m, s.latest.V)
		switch k.m {
		case sensors.Temperature:
			if lo, hi, ok := Extremes(s.pts, midnight); ok {
				z[KeyMinTemp] = round(k.m, lo.V)
				z[KeyMaxTemp] = round(k.m, hi.V)
				z[KeyDateMinTemp] = lo.T
				z[KeyDateMaxTemp] = hi.T
			}
			if w, ok := Trend(s.pts, sec, TemperatureTrend); ok {
				z[KeyTempTrend] = w
			}
		case sensors.Pressure:
			if w, ok := Trend(s.pts, sec, PressureTrend); ok {
				z[KeyPressureTrend] = w
			}
		case sensors.Rain:
			z[KeySumRain1] = round(k.m, Sum(s.pts, sec-3600, sec))
			z[KeySumRain24] = round(k.m, Sum(s.pts, sec-86400, sec))
		}
	}
	return c, times, gen
}

// Snapshot returns the structure as it stands now. It is rebuilt only when
// a reading has arrived or the clock has moved to another second since the
// last one, which is as often as it can change.
func (s *Store) Snapshot() *Snapshot {
	now := s.opts.Now()
	if sn := s.snap.Load(); sn != nil && sn.gen == s.live.gen.Load() && sn.Time.Unix() == now.Unix() {
		return sn
	}
	s.snapMu.Lock()
	defer s.snapMu.Unlock()
	if sn := s.snap.Load(); sn != nil && sn.gen == s.live.gen.Load() && sn.Time.Unix() == now.Unix() {
		return sn
	}
	c, times, gen := s.live.shape(now, s.opts.Location)
	data, err := json.Marshal(c)
	if err != nil {
		// Every value is a finite number, an integer or a string: a failure
		// here is a bug, and an empty object is the honest fallback.
		s.log.Error("encode climate", "err", err)
		data = []byte("{}")
	}
	sn := &Snapshot{Time: now, Climate: c, JSON: data, gen: gen, times: times}
	s.snap.Store(sn)
	return sn
}

// ClimateJSON is the structure as JSON, made once per change (see Snapshot).
func (s *Store) ClimateJSON() []byte { return s.Snapshot().JSON }

// ClimateTimes is ClimateJSON with, from the same snapshot, the Unix time
// of each measurement's latest reading (zone → measurement → time): When
// is only the newest of them. The maps must not be modified.
func (s *Store) ClimateTimes() ([]byte, map[string]map[string]int64) {
	sn := s.Snapshot()
	return sn.JSON, sn.times
}

// Latest returns the time of the newest reading of any series, or the zero
// time when nothing has been recorded.
func (s *Store) Latest() time.Time {
	s.live.mu.RLock()
	defer s.live.mu.RUnlock()
	var t int64
	for _, r := range s.live.series {
		t = max(t, r.latest.T)
	}
	if t == 0 {
		return time.Time{}
	}
	return time.Unix(t, 0)
}

// Zones lists the zones that have readings, sorted.
func (s *Store) Zones() []string {
	s.live.mu.RLock()
	defer s.live.mu.RUnlock()
	seen := map[string]bool{}
	var zs []string
	for k := range s.live.series {
		if !seen[k.zone] {
			seen[k.zone] = true
			zs = append(zs, k.zone)
		}
	}
	sort.Strings(zs)
	return zs
}
