package alerts

import (
	"math"
	"time"

	"github.com/climated/climated/sensors"
)

// Kind is what a rule watches for.
type Kind string

// The kinds of rule.
const (
	// Above fires when a measurement goes over Threshold and clears once it
	// is back under Clear.
	Above Kind = "above"
	// Below fires when a measurement goes under Threshold and clears once it
	// is back over Clear.
	Below Kind = "below"
	// Rise fires when a measurement rises by Threshold or more within
	// Window (see Change for how the change is judged).
	Rise Kind = "rise"
	// Fall fires when a measurement falls by Threshold or more within Window:
	// the storm warning is a Fall of Pressure.
	Fall Kind = "fall"
	// Stale fires when a zone has sent no reading at all for For: a sensor
	// whose battery died, a device off the network.
	Stale Kind = "stale"
	// Condensation fires when the room's dew point comes within Threshold °C
	// of the estimated temperature of an outside wall's inner surface (see
	// SurfaceTemperature); it needs the zone's Temperature and Humidity and
	// the temperature of an outdoor zone.
	Condensation Kind = "condensation"
)

// Kinds lists every kind of rule.
func Kinds() []Kind { return []Kind{Above, Below, Rise, Fall, Stale, Condensation} }

// Scope says which zones a house rule applies to; user rules name one zone.
type Scope string

// The scopes of house rules.
const (
	AnyZone     Scope = "any"     // every zone
	IndoorZone  Scope = "indoor"  // every zone that is not outdoor
	OutdoorZone Scope = "outdoor" // the outdoor zones of the configuration
)

// Rule is one thing to watch for. A user rule names one Zone; a house rule
// has a Scope instead and runs separately in each zone of it.
type Rule struct {
	ID          string              // "u1", "u2" … for user rules, "house.co2" … for house rules
	Name        string              // optional words for the rule: "mould risk"
	Kind        Kind                // what it watches for
	Zone        string              // the zone of a user rule
	Scope       Scope               // the zones of a house rule
	Measurement sensors.Measurement // not for Stale and Condensation
	Threshold   float64             // the level (Above, Below), the change (Rise, Fall) or the margin in °C (Condensation)
	Clear       *float64            // the level at which a firing rule clears; nil means the default (see DefaultClear)
	Window      time.Duration       // Rise, Fall: the window the change is judged over
	For         time.Duration       // how long the condition must hold before the rule fires; Stale: the silence
	ClearFor    time.Duration       // how long the clear condition must hold before the rule clears; 0 at once
	House       bool                // a house rule, from the configuration
}

// DefaultClear is the level at which r clears when Clear is not set:
//   - Above, Below: 1 % of the measurement's range (Info.Max − Info.Min)
//     back from the threshold, rounded to the measurement's decimals
//     (CO2 100 ppm, Temperature 1.5 °C, Humidity 1 %, Pressure 3 hPa);
//   - Rise, Fall: half the threshold;
//   - Condensation: 1 °C more margin than the threshold;
//   - Stale: none (any reading clears it).
func (r Rule) DefaultClear() float64 {
	switch r.Kind {
	case Above, Below:
		info, _ := sensors.Lookup(r.Measurement)
		band := r.Measurement.Round((info.Max-info.Min)/100, 0)
		if r.Kind == Above {
			return r.Threshold - band
		}
		return r.Threshold + band
	case Rise, Fall:
		return r.Threshold / 2
	case Condensation:
		return r.Threshold + 1
	}
	return math.NaN()
}

// clearLevel is Clear or its default.
func (r Rule) clearLevel() float64 {
	if r.Clear == nil {
		return r.DefaultClear()
	}
	return *r.Clear
}

// breached reports whether value v is past the rule's threshold.
func (r Rule) breached(v float64) bool {
	switch r.Kind {
	case Above, Rise, Fall:
		return v > r.Threshold || (r.Kind != Above && v >= r.Threshold)
	case Below:
		return v < r.Threshold
	case Condensation:
		return v <= r.Threshold
	}
	return false
}

// recovered reports whether v is back past the rule's clear level.
func (r Rule) recovered(v float64) bool {
	c := r.clearLevel()
	switch r.Kind {
	case Above, Rise, Fall:
		return v < c
	case Below, Condensation:
		return v > c
	}
	return true
}

// watches reports whether a reading of m can change the rule's value.
func (r Rule) watches(m sensors.Measurement) bool {
	if r.Kind == Condensation {
		return m == sensors.Temperature || m == sensors.Humidity
	}
	return r.Kind != Stale && m == r.Measurement
}
