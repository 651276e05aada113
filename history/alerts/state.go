package alerts

import (
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// Phase is where a rule stands in one zone.
type Phase string

// The phases of a rule in a zone: ok → pending (breached, holding) →
// firing → clearing (recovered, holding) → ok.
const (
	OK       Phase = "ok"
	Pending  Phase = "pending"
	Firing   Phase = "firing"
	Clearing Phase = "clearing"
)

// State is the phase of one rule in one zone. It is persisted on every
// change of phase, so a restart resumes a hold or a firing where it was.
type State struct {
	Rule    string
	Zone    string
	Phase   Phase
	Since   time.Time // when this phase began
	FiredAt time.Time // when the rule fired; kept while it is clearing
	Value   float64   // the value that caused the latest change of phase
}

// Active reports whether the alert is on: firing, or firing and clearing.
func (s State) Active() bool { return s.Phase == Firing || s.Phase == Clearing }

// activeOf is the states of ss that are on, the earliest fired first
// (then by rule and zone), as Engine.Active and DB.Active give them.
func activeOf(ss []State) []State {
	var out []State
	for _, s := range ss {
		if s.Active() {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b State) int {
		if c := a.FiredAt.Compare(b.FiredAt); c != 0 {
			return c
		}
		return strings.Compare(a.Rule+"/"+a.Zone, b.Rule+"/"+b.Zone)
	})
	return out
}

// EventType says what happened to an alert.
type EventType string

// The events of an alert.
const (
	Fired   EventType = "fired"
	Cleared EventType = "cleared"
)

// Event is an alert firing or clearing: what the hub tells the assistant,
// the house (MQTT, webhook) and the history.
type Event struct {
	Type        EventType
	Rule        string // the rule's ID
	Kind        Kind
	House       bool
	Zone        string
	Measurement sensors.Measurement // empty for Stale and Condensation
	Time        time.Time           // the time of the reading (or tick) that caused it
	Value       float64             // the value that caused it (the change for Rise/Fall, the margin for Condensation, the silence in seconds for Stale)
	Unit        string              // the unit of Value
	Text        string              // in words: "Bedroom CO2 above 1200 ppm for 15 min: 1350 ppm"
}

type stateKey struct{ rule, zone string }
