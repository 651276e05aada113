package alerts

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// Limits of rules; they keep the engine's work per reading and the
// database's rows bounded.
const (
	// MaxUserRules is the number of rules users (and assistants) may
	// create; house rules come on top of it.
	MaxUserRules = 100
	// MaxWindow is the longest Window of a rate rule: the engine keeps the
	// points of that window in memory.
	MaxWindow = 24 * time.Hour
	// MaxFor is the longest hold (For, ClearFor) and the longest silence
	// of a Stale rule.
	MaxFor = 7 * 24 * time.Hour
	// MaxNameLen bounds a rule's Name.
	MaxNameLen = 100
)

// ErrTooManyRules is returned (wrapped) by Create when MaxUserRules exist.
var ErrTooManyRules = errors.New("too many rules")

// InvalidError says what is wrong with a rule and what would be valid.
type InvalidError struct {
	Field string // "zone", "measurement", "threshold" …
	Msg   string
}

func (e *InvalidError) Error() string { return "rule: " + e.Field + ": " + e.Msg }

func invalid(field, format string, args ...any) error {
	return &InvalidError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks a user rule against the known zones and the measurement
// catalogue, and any rule's name (see name.go). Errors name what was wrong
// and what is valid.
func (r Rule) Validate(zones []string) error {
	if len(r.Name) > MaxNameLen {
		return invalid("name", "%d characters; at most %d", len(r.Name), MaxNameLen)
	}
	if err := validateName(r.Name); err != nil {
		return err
	}
	if r.House {
		return r.validateHouse()
	}
	if !slices.Contains(Kinds(), r.Kind) {
		return invalid("kind", "%q is not a kind of rule; valid kinds: %s", r.Kind, joinKinds())
	}
	if r.Zone == "" {
		return invalid("zone", "missing; known zones: %s", strings.Join(zones, ", "))
	}
	if !slices.Contains(zones, r.Zone) {
		return invalid("zone", "unknown zone %q; known zones: %s", r.Zone, strings.Join(zones, ", "))
	}
	return r.validateShape()
}

// validateHouse checks a house rule: its thresholds come from the
// configuration, its zones from its scope.
func (r Rule) validateHouse() error {
	switch r.Scope {
	case AnyZone, IndoorZone, OutdoorZone:
	default:
		return invalid("scope", "%q; valid scopes: any, indoor, outdoor", r.Scope)
	}
	return r.validateShape()
}

// validateShape checks what user and house rules share: measurement,
// threshold, clear level and durations.
func (r Rule) validateShape() error {
	if err := r.validateMeasurement(); err != nil {
		return err
	}
	if err := r.validateLevels(); err != nil {
		return err
	}
	return r.validateDurations()
}

func (r Rule) validateMeasurement() error {
	switch r.Kind {
	case Stale, Condensation:
		if r.Measurement != "" {
			return invalid("measurement", "a %s rule takes no measurement (got %q)", r.Kind, r.Measurement)
		}
		return nil
	}
	if r.Measurement == "" {
		return invalid("measurement", "missing; valid measurements: %s", joinMeasurements())
	}
	info, ok := sensors.Lookup(r.Measurement)
	if !ok {
		return invalid("measurement", "unknown measurement %q; valid measurements: %s", r.Measurement, joinMeasurements())
	}
	if info.Kind == sensors.Direction {
		// 359° is not "above" 1°: a direction crosses no threshold.
		return invalid("measurement", "%s is a direction, which has no above, below, rise or fall: watch the wind's speed or gust (WindStrength, GustStrength) instead", r.Measurement)
	}
	return nil
}

func (r Rule) validateLevels() error {
	if math.IsNaN(r.Threshold) || math.IsInf(r.Threshold, 0) {
		return invalid("threshold", "not a number")
	}
	info, _ := sensors.Lookup(r.Measurement)
	switch r.Kind {
	case Above, Below:
		if r.Threshold < info.Min || r.Threshold > info.Max {
			return invalid("threshold", "%g %s is outside the range of %s, %g…%g %s", r.Threshold, info.Unit, r.Measurement, info.Min, info.Max, info.Unit)
		}
	case Rise, Fall:
		if span := info.Max - info.Min; r.Threshold <= 0 || r.Threshold > span {
			return invalid("threshold", "a change of %g %s; want more than 0 and at most %g %s, the range of %s", r.Threshold, info.Unit, span, info.Unit, r.Measurement)
		}
	case Condensation:
		if r.Threshold < 0 || r.Threshold > 10 {
			return invalid("threshold", "a margin of %g °C; want 0…10 °C", r.Threshold)
		}
	}
	return r.validateClear()
}

// validateClear checks that the clear level lies on the safe side of the
// threshold: otherwise the rule would clear while still breached.
func (r Rule) validateClear() error {
	if r.Clear == nil {
		return nil
	}
	c := *r.Clear
	if r.Kind == Stale {
		return invalid("clear", "a stale rule clears with the next reading and takes no clear level")
	}
	if math.IsNaN(c) || math.IsInf(c, 0) {
		return invalid("clear", "not a number")
	}
	wrong := false
	switch r.Kind {
	case Above, Rise, Fall:
		wrong = c > r.Threshold
	case Below, Condensation:
		wrong = c < r.Threshold
	}
	if wrong {
		return invalid("clear", "%g is on the wrong side of the threshold %g: a %s rule clears %s", c, r.Threshold, r.Kind, clearSide(r.Kind))
	}
	return nil
}

func clearSide(k Kind) string {
	switch k {
	case Below, Condensation:
		return "at or above its threshold"
	}
	return "at or below its threshold"
}

func (r Rule) validateDurations() error {
	if r.Kind == Rise || r.Kind == Fall {
		if r.Window <= 0 || r.Window > MaxWindow {
			return invalid("window", "%s; want more than 0 and at most %s", r.Window, MaxWindow)
		}
	} else if r.Window != 0 {
		return invalid("window", "only rise and fall rules take a window (got %s)", r.Window)
	}
	if r.Kind == Stale && r.For <= 0 {
		return invalid("for", "%s; a stale rule needs the silence that fires it, more than 0 and at most %s", r.For, MaxFor)
	}
	if r.For < 0 || r.For > MaxFor {
		return invalid("for", "%s; want 0 (fire at once) up to %s", r.For, MaxFor)
	}
	if r.ClearFor < 0 || r.ClearFor > MaxFor {
		return invalid("clear_for", "%s; want 0 (clear at once) up to %s", r.ClearFor, MaxFor)
	}
	return nil
}

func joinKinds() string {
	var s []string
	for _, k := range Kinds() {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

func joinMeasurements() string {
	var s []string
	for _, m := range sensors.Measurements() {
		s = append(s, string(m))
	}
	return strings.Join(s, ", ")
}
