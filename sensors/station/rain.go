package station

import (
	"fmt"
	"math"
	"time"
)

// The rain counters, longest period first: the one a gauge follows is
// the longest the station sends, as it is reset least often.
var counterOrder = []string{"total", "yearly", "monthly", "weekly", "daily", "event", "hourly"}

// RainState is what a RainGauge must keep across a restart of the hub
// (recorded with the rain it counted, so that neither is lost alone).
type RainState struct {
	Counter string    // which counter it follows
	MM      float64   // its last value
	Time    time.Time // the upload's time
	// FellFrom is what the counter read before it fell to near zero
	// with no reset of its period: a reset, or a glitch that comes back.
	// When the counter comes back to it before its period's reset, the
	// fall was a glitch, and only the rise past it is rain. 0: none.
	FellFrom float64 `json:",omitempty"`
}

// Bounds of what a rain counter may say before it is believed.
const (
	// MaxCounterMM is the most a counter may read: a century of the
	// wettest place on Earth (Mawsynram, about 12 m a year). A larger
	// value (1e300 from a glitched upload) is refused, the baseline kept.
	MaxCounterMM = 1_200_000
	// MaxRainPerMinute bounds an increase by the time since the upload
	// before: the heaviest minute ever measured is 31.2 mm (Unionville,
	// 1956), so more than 40 mm a minute is a glitch, refused.
	MaxRainPerMinute = 40.0
	// ResetNearMM is how near zero a counter that fell must be to count
	// as reset, when no reset of its period fell between the two
	// uploads: a console restarting, an event counter starting again.
	ResetNearMM = 1.0
)

// RainError says why an upload's counter was not counted; the gauge's
// baseline is as it was, or, for a fall that is no reset, the new value.
type RainError struct {
	Counter string  // the counter's name: total, yearly …
	MM      float64 // what it said
	Why     string
}

func (e *RainError) Error() string {
	return fmt.Sprintf("rain counter %s %g mm: %s", e.Counter, e.MM, e.Why)
}

// RainGauge turns one gauge's counters (a station's tipping bucket, or
// its piezo gauge) into rain amounts: each upload's increase of the
// longest counter the station sends. A counter that falls was reset when
// it falls to near zero (a console's restart, an event's start) or when
// its period's reset fell between the two uploads (the daily one at
// midnight, the yearly one on 1 January, in the gauge's time zone): the
// rain since the reset is its new value. Any other fall (a correction, a
// glitch coming back) takes the new value as the baseline and counts
// nothing. A value no counter can hold, or an increase no rain can make
// in the time since the upload before, is refused and moves nothing. An
// upload not later than the last one (sent twice, or late) counts
// nothing, and so does the first, which only sets the baseline.
type RainGauge struct {
	state RainState
	have  bool
	loc   *time.Location // where the counters' periods begin
}

// NewRainGauge is a gauge that goes on from s (nil: a first upload),
// whose station resets its counters at the period boundaries of loc (nil:
// time.Local).
func NewRainGauge(s *RainState, loc *time.Location) *RainGauge {
	if loc == nil {
		loc = time.Local
	}
	if s == nil {
		return &RainGauge{loc: loc}
	}
	return &RainGauge{state: *s, have: true, loc: loc}
}

// State is what to keep; false before the first upload.
func (g *RainGauge) State() (RainState, bool) { return g.state, g.have }

// Add takes an upload's counters of this gauge at time t and returns the
// rain in mm that fell since the upload before; counted is false when it
// says nothing about rain (a baseline, a repeated or late upload, or no
// counter of this gauge), and err says why a counter was refused or
// taken as a new baseline.
func (g *RainGauge) Add(t time.Time, counters []Counter) (mm float64, counted bool, err error) {
	c, ok := longest(counters)
	switch {
	case !ok:
		return 0, false, nil
	case math.IsNaN(c.MM) || c.MM < 0 || c.MM > MaxCounterMM:
		return 0, false, &RainError{c.Name, c.MM, fmt.Sprintf("outside 0 to %d mm: refused, the count goes on from %g mm", MaxCounterMM, g.state.MM)}
	case g.have && !t.After(g.state.Time):
		return 0, false, nil
	}
	prev, had := g.state, g.have
	next := RainState{Counter: c.Name, MM: c.MM, Time: t}
	if had && prev.FellFrom > 0 && !periodBegan(c.Name, prev.Time.In(g.loc), t.In(g.loc)) {
		next.FellFrom = prev.FellFrom // still within the period the fall came in
	}
	switch {
	case !had || prev.Counter != c.Name:
		g.state, g.have = RainState{Counter: c.Name, MM: c.MM, Time: t}, true
		return 0, false, nil // a new baseline: the station sends another counter now
	case next.FellFrom > 0 && c.MM >= next.FellFrom && c.MM > prev.MM:
		// Back at or past where it fell from: the fall was a glitch
		// (what its "reset" counted, at most ResetNearMM, stays counted).
		rise, most := c.MM-next.FellFrom, MaxRainPerMinute*math.Max(1, t.Sub(prev.Time).Minutes())
		next.FellFrom = 0
		g.state = next
		if rise > most {
			return 0, false, &RainError{c.Name, c.MM, fmt.Sprintf("back from a fall to %g mm, and %g mm past where it fell from in %v: the new baseline, nothing counted",
				prev.MM, rise, t.Sub(prev.Time).Round(time.Second))}
		}
		return rise, true, nil
	case c.MM >= prev.MM:
		rise, most := c.MM-prev.MM, MaxRainPerMinute*math.Max(1, t.Sub(prev.Time).Minutes())
		if rise > most {
			return 0, false, &RainError{c.Name, c.MM, fmt.Sprintf("a rise of %g mm in %v, more than %g mm a minute: refused, the count goes on from %g mm",
				rise, t.Sub(prev.Time).Round(time.Second), MaxRainPerMinute, prev.MM)}
		}
		g.state = next
		return rise, true, nil
	case periodBegan(c.Name, prev.Time.In(g.loc), t.In(g.loc)):
		g.state = next
		return c.MM, true, nil // reset since the last upload: what it counts is the rain since
	case c.MM <= ResetNearMM:
		// A console's restart, an event starting again, or a glitch: the
		// value it fell from is kept until the counter comes back to it.
		next.FellFrom = max(prev.MM, next.FellFrom)
		g.state = next
		return c.MM, true, nil
	default:
		g.state = next
		return 0, false, &RainError{c.Name, c.MM, fmt.Sprintf("fell from %g mm with no reset of its period since: a correction, taken as the new baseline, nothing counted", prev.MM)}
	}
}

// periodBegan reports whether counter's period began after a and by b:
// the station reset it then.
func periodBegan(counter string, a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	switch counter {
	case "hourly":
		return !a.Truncate(time.Hour).Equal(b.Truncate(time.Hour)) || ad != bd
	case "daily":
		return ay != by || am != bm || ad != bd
	case "weekly": // on Sunday or Monday, as consoles differ: either
		days := int(time.Date(by, bm, bd, 0, 0, 0, 0, time.UTC).Sub(time.Date(ay, am, ad, 0, 0, 0, 0, time.UTC)).Hours() / 24)
		for k := range min(days, 7) {
			if wd := (int(b.Weekday()) - k + 7) % 7; wd == int(time.Sunday) || wd == int(time.Monday) {
				return true
			}
		}
		return false
	case "monthly":
		return ay != by || am != bm
	case "yearly":
		return ay != by
	}
	return false // total: never; event: when it falls near zero
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
