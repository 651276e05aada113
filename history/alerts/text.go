package alerts

import (
	"fmt"
	"time"
)

// eventText says an event in words, with the value that caused it:
//
//	Bedroom CO2 above 1200 ppm for 15 min: 1350 ppm
//	Bedroom CO2 back below 1100 ppm after 2 h 5 min: 1050 ppm
//	Indoor Pressure falling by 3.6 hPa or more within 3 h: fell 4.2 hPa (storm warning)
//	Balcony silent (no reading) for 1 h (silent sensor)
//
// lasted is how long the alert was on (for a cleared one).
func (r Rule) eventText(typ EventType, zone string, v float64, lasted time.Duration) string {
	rz := r
	rz.Zone = zone
	var s string
	if typ == Fired {
		s = zone + " " + rz.condition()
		if r.For > 0 && r.Kind != Stale {
			s += " for " + words(r.For)
		}
		if r.Kind != Stale {
			s += ": " + r.valueWords(v)
		}
	} else {
		s = zone + " " + r.clearedWords() + " after " + words(lasted)
		if r.Kind != Stale {
			s += ": " + r.valueWords(v)
		}
	}
	if r.Name != "" {
		s += " (" + r.Name + ")"
	}
	return s
}

func (r Rule) clearedWords() string {
	m := measurementWords(r.Measurement)
	c := r.clearLevel()
	switch r.Kind {
	case Above:
		return m + " back " + below(r.Measurement) + " " + value(r.Measurement, c)
	case Below:
		return m + " back " + above(r.Measurement) + " " + value(r.Measurement, c)
	case Rise:
		return m + " no longer rising fast"
	case Fall:
		return m + " no longer falling fast"
	case Condensation:
		return "condensation risk over"
	}
	return "sending readings again"
}

// valueWords says the value a rule judged.
func (r Rule) valueWords(v float64) string {
	switch r.Kind {
	case Rise:
		return "rose " + value(r.Measurement, v) + " within " + words(r.Window)
	case Fall:
		return "fell " + value(r.Measurement, v) + " within " + words(r.Window)
	case Condensation:
		return fmt.Sprintf("margin %s °C", trim(v, 1))
	}
	return value(r.Measurement, v)
}
