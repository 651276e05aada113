package alerts

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// Create validates a user rule, keeps it and returns it with its ID. The
// caller reads Describe() back to the user. Errors say what is valid.
func (e *Engine) Create(ctx context.Context, r Rule) (Rule, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	r.ID, r.House, r.Scope = "", false, ""
	zones := make([]string, 0, len(e.zones))
	for z := range e.zones {
		zones = append(zones, z)
	}
	slices.Sort(zones)
	if err := r.Validate(zones); err != nil {
		return Rule{}, err
	}
	if n := e.userRules(); n >= MaxUserRules {
		return Rule{}, fmt.Errorf("%w: %d rules exist and the limit is %d; delete one first", ErrTooManyRules, n, MaxUserRules)
	}
	if e.store != nil {
		id, err := e.store.AddRule(ctx, r)
		if err != nil {
			return Rule{}, fmt.Errorf("save rule: %w", err)
		}
		r.ID = id
	} else {
		r.ID = "u" + strconv.Itoa(e.nextID)
		e.nextID++
	}
	e.rules = append(e.rules, r)
	e.reindex()
	return r, nil
}

// Delete deletes a user rule, its states (an active alert of it ends
// without a cleared event) but not its history. House rules are turned off
// in the configuration instead.
func (e *Engine) Delete(ctx context.Context, id string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	r := e.rule(id)
	switch {
	case r == nil:
		return fmt.Errorf("%w %q; rules: %s", ErrNoRule, id, e.ids())
	case r.House:
		key := strings.TrimPrefix(id, "house.")
		return fmt.Errorf("rule %q is a house rule: turn it off in the configuration (alerts: house: %s: enabled: false)", id, key)
	}
	if e.store != nil {
		if err := e.store.DeleteRule(ctx, id); err != nil {
			return fmt.Errorf("delete rule %s: %w", id, err)
		}
	}
	for i := range e.rules {
		if e.rules[i].ID == id {
			e.rules = append(e.rules[:i], e.rules[i+1:]...)
			break
		}
	}
	for k := range e.states {
		if k.rule == id {
			delete(e.states, k)
		}
	}
	e.reindex()
	return nil
}

func (e *Engine) userRules() int {
	n := 0
	for _, r := range e.rules {
		if !r.House {
			n++
		}
	}
	return n
}

func (e *Engine) ids() string {
	var s []string
	for _, r := range e.rules {
		s = append(s, r.ID)
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// index finds the rules a reading concerns without scanning them all.
type index struct {
	byMeasurement map[sensors.Measurement][]*Rule
	stale         []*Rule
	window        map[sensors.Measurement]time.Duration // the longest window of the rate rules on a measurement
}

// reindex rebuilds the index after the rules changed; pointers into
// e.rules stay valid until the next change.
func (e *Engine) reindex() {
	ix := index{byMeasurement: map[sensors.Measurement][]*Rule{}, window: map[sensors.Measurement]time.Duration{}}
	for i := range e.rules {
		r := &e.rules[i]
		switch r.Kind {
		case Stale:
			ix.stale = append(ix.stale, r)
		case Condensation:
			ix.byMeasurement[sensors.Temperature] = append(ix.byMeasurement[sensors.Temperature], r)
			ix.byMeasurement[sensors.Humidity] = append(ix.byMeasurement[sensors.Humidity], r)
		default:
			ix.byMeasurement[r.Measurement] = append(ix.byMeasurement[r.Measurement], r)
		}
		if r.Window > ix.window[r.Measurement] {
			ix.window[r.Measurement] = r.Window
		}
	}
	e.index = ix
}
