package alerts

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// Describe says the rule in words, for an assistant to read back to the
// user before it is kept: "Bedroom CO2 above 1200 ppm for 15 min (clears
// below 1100 ppm)".
func (r Rule) Describe() string {
	var b strings.Builder
	b.WriteString(r.where())
	b.WriteString(" ")
	b.WriteString(r.condition())
	if r.For > 0 && r.Kind != Stale {
		b.WriteString(" for " + words(r.For))
	}
	if c := r.clearWords(); c != "" {
		b.WriteString(" (" + c + ")")
	}
	if r.Name != "" {
		return r.Name + ": " + b.String()
	}
	return b.String()
}

// where names the zone, or the zones of a house rule.
func (r Rule) where() string {
	switch {
	case r.Zone != "":
		return r.Zone
	case r.Scope == IndoorZone:
		return "any indoor zone:"
	case r.Scope == OutdoorZone:
		return "any outdoor zone:"
	}
	return "any zone:"
}

// condition is the rule's condition without zone or hold.
func (r Rule) condition() string {
	m := measurementWords(r.Measurement)
	switch r.Kind {
	case Above:
		return m + " " + above(r.Measurement) + " " + value(r.Measurement, r.Threshold)
	case Below:
		return m + " " + below(r.Measurement) + " " + value(r.Measurement, r.Threshold)
	case Rise:
		return fmt.Sprintf("%s rising by %s or more within %s", m, value(r.Measurement, r.Threshold), words(r.Window))
	case Fall:
		return fmt.Sprintf("%s falling by %s or more within %s", m, value(r.Measurement, r.Threshold), words(r.Window))
	case Stale:
		return "silent (no reading) for " + words(r.For)
	case Condensation:
		c := fmt.Sprintf("dew point within %s °C of an outside wall's inner surface (estimated, fRsi %g)", trim(r.Threshold, 1), FRsi)
		if r.Name == "" { // a house rule's name says it already
			c = "condensation risk: " + c
		}
		return c
	}
	return string(r.Kind)
}

func (r Rule) clearWords() string {
	c := r.clearLevel()
	switch r.Kind {
	case Above:
		return "clears " + below(r.Measurement) + " " + value(r.Measurement, c) + r.clearHold()
	case Below:
		return "clears " + above(r.Measurement) + " " + value(r.Measurement, c) + r.clearHold()
	case Rise, Fall:
		return "clears once the change is under " + value(r.Measurement, c) + r.clearHold()
	case Condensation:
		return "clears at a margin over " + trim(c, 1) + " °C" + r.clearHold()
	case Stale:
		return "clears with the next reading"
	}
	return ""
}

func (r Rule) clearHold() string {
	if r.ClearFor > 0 {
		return " for " + words(r.ClearFor)
	}
	return ""
}

// measurementWords names m for a person: the signal scales read better
// with their meaning.
func measurementWords(m sensors.Measurement) string {
	switch m {
	case sensors.BatteryPercent:
		return "battery"
	case sensors.RFStatus:
		return "radio signal (rf_status)"
	case sensors.WiFiStatus:
		return "Wi-Fi signal (wifi_status)"
	}
	return string(m)
}

// above and below say "weaker than" for the signal scales, where a higher
// number is a weaker signal.
func above(m sensors.Measurement) string {
	if isSignal(m) {
		return "weaker than"
	}
	return "above"
}

func below(m sensors.Measurement) string {
	if isSignal(m) {
		return "stronger than"
	}
	return "below"
}

func isSignal(m sensors.Measurement) bool { return m == sensors.RFStatus || m == sensors.WiFiStatus }

// value writes v in m's unit at m's decimals: "1200 ppm", "2.5 °C", "70 %".
func value(m sensors.Measurement, v float64) string {
	info, ok := sensors.Lookup(m)
	if !ok {
		return trim(v, 2)
	}
	s := trim(v, info.Decimals)
	if info.Unit == "" {
		return s
	}
	return s + " " + info.Unit
}

// trim writes v with at most dec decimals and no trailing zeros.
func trim(v float64, dec int) string {
	p := math.Pow10(dec)
	v = math.Round(v*p) / p
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// words writes a duration as a person says it: "15 min", "6 h", "1 h 30 min", "45 s".
func words(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%d s", int(d/time.Second))
	}
	d = d.Round(time.Minute)
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h == 0:
		return fmt.Sprintf("%d min", m)
	case m == 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}
