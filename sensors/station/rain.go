package station

import "time"

// The rain counters, longest period first: the one a gauge follows is
// the longest the station sends, as it is reset least often.
var counterOrder = []string{"total", "yearly", "monthly", "weekly", "daily", "event", "hourly"}

// RainState is what a RainGauge must keep across a restart of the hub
// (recorded with the rain it counted, so that neither is lost alone).
type RainState struct {
	Counter string    // which counter it follows
	MM      float64   // its last value
	Time    time.Time // the upload's time
}

// RainGauge turns one gauge's counters (a station's tipping bucket, or
// its piezo gauge) into rain amounts: each upload's increase of the
// longest counter the station sends. A counter that falls was reset (the
// daily one at midnight, the yearly one on 1 January, any of them when
// the console restarts or is reset): the rain since the reset is its new
// value. An upload not later than the last one (sent twice, or late)
// counts nothing, and so does the first, which only sets the baseline.
type RainGauge struct {
	state RainState
	have  bool
}

// NewRainGauge is a gauge that goes on from s (nil: a first upload).
func NewRainGauge(s *RainState) *RainGauge {
	if s == nil {
		return &RainGauge{}
	}
	return &RainGauge{state: *s, have: true}
}

// State is what to keep; false before the first upload.
func (g *RainGauge) State() (RainState, bool) { return g.state, g.have }

// Add takes an upload's counters of this gauge at time t and returns the
// rain in mm that fell since the upload before; counted is false when it
// says nothing about rain (a baseline, a repeated or late upload, or no
// counter of this gauge).
func (g *RainGauge) Add(t time.Time, counters []Counter) (mm float64, counted bool) {
	c, ok := longest(counters)
	switch {
	case !ok:
		return 0, false
	case g.have && !t.After(g.state.Time):
		return 0, false
	}
	prev, had := g.state, g.have
	g.state, g.have = RainState{c.Name, c.MM, t}, true
	switch {
	case !had || prev.Counter != c.Name:
		return 0, false // a new baseline: the station sends another counter now
	case c.MM >= prev.MM:
		return c.MM - prev.MM, true
	default:
		return c.MM, true // reset since the last upload: what it counts is the rain since
	}
}

// longest is the counter of the longest period among cs.
func longest(cs []Counter) (Counter, bool) {
	for _, name := range counterOrder {
		for _, c := range cs {
			if c.Name == name {
				return c, true
			}
		}
	}
	return Counter{}, false
}

// Gauges splits an upload's counters by gauge: the tipping bucket's, the
// piezo gauge's and the lightning sensor's.
func Gauges(cs []Counter) (tipping, piezo, strikes []Counter) {
	for _, c := range cs {
		switch {
		case c.Strikes:
			strikes = append(strikes, c)
		case c.Piezo:
			piezo = append(piezo, c)
		default:
			tipping = append(tipping, c)
		}
	}
	return tipping, piezo, strikes
}
