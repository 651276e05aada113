package alerts

import (
	"context"
	"fmt"
	"time"

	"github.com/climated/climated/sensors"
)

// outdoorFresh is how old an outdoor temperature may be for the
// condensation rule to use it.
const outdoorFresh = time.Hour

// batch gathers what one Observe or Tick changed.
type batch struct {
	order  []stateKey
	seen   map[stateKey]bool
	events []Event
}

func (b *batch) changed(k stateKey) {
	if b.seen == nil {
		b.seen = map[stateKey]bool{}
	}
	if !b.seen[k] {
		b.seen[k] = true
		b.order = append(b.order, k)
	}
}

// Observe evaluates the rules of each reading's zone and measurement, in
// the order of readings, and returns the events they caused. The states
// that changed and the events are committed to the Store before it
// returns; if that fails it returns the events and the error (the states
// in memory have moved on, so they are not repeated while it runs).
func (e *Engine) Observe(ctx context.Context, readings []sensors.Reading) ([]Event, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var b batch
	oldest := e.now().Add(-e.maxAge)
	for _, r := range readings {
		if r.Time.Before(oldest) {
			e.stats.Old++
			e.prime(r)
			continue
		}
		e.observe(&b, r)
	}
	return e.commit(ctx, &b)
}

// Prime feeds readings of the recent past (the history's window, at
// start-up) into the rate rules' windows and the zones' latest values
// without evaluating any rule.
func (e *Engine) Prime(readings []sensors.Reading) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range readings {
		e.prime(r)
	}
}

func (e *Engine) prime(r sensors.Reading) {
	if r.Validate() != nil {
		return
	}
	z := e.zone(r.Zone)
	if r.Time.After(z.lastSeen) {
		z.lastSeen = r.Time
	}
	e.remember(z, r)
}

func (e *Engine) observe(b *batch, r sensors.Reading) {
	if r.Validate() != nil {
		return // the store reports invalid readings; they trigger nothing
	}
	e.stats.Readings++
	z := e.zone(r.Zone)
	if r.Time.After(z.lastSeen) {
		z.lastSeen = r.Time
	}
	for _, rule := range e.index.stale {
		if inScope(rule, r.Zone, z.outdoor) {
			e.step(b, rule, r.Zone, r.Time, 0)
		}
	}
	e.remember(z, r)
	for _, rule := range e.index.byMeasurement[r.Measurement] {
		if !inScope(rule, r.Zone, z.outdoor) {
			continue
		}
		if v, ok := e.value(rule, z, r); ok {
			e.step(b, rule, r.Zone, r.Time, v)
		}
	}
}

// remember keeps what value needs: the points of rate rules' windows and
// the latest temperature and humidity.
func (e *Engine) remember(z *zone, r sensors.Reading) {
	if window := e.index.window[r.Measurement]; window > 0 {
		s := z.series[r.Measurement]
		if s == nil {
			s = &series{}
			z.series[r.Measurement] = s
		}
		s.add(point{r.Time.Unix(), r.Value}, window)
	}
	if r.Measurement == sensors.Temperature || r.Measurement == sensors.Humidity {
		if last, ok := z.latest[r.Measurement]; !ok || !r.Time.Before(last.t) {
			z.latest[r.Measurement] = sample{r.Time, r.Value, sensors.Simulated(r.Source)}
		}
	}
}

// value is what rule judges for reading r of zone z: the reading itself,
// the change over the window, or the condensation margin.
func (e *Engine) value(rule *Rule, z *zone, r sensors.Reading) (float64, bool) {
	switch rule.Kind {
	case Above, Below:
		return r.Value, true
	case Rise, Fall:
		s := z.series[r.Measurement]
		if s == nil {
			return 0, false
		}
		c, ok := s.change(r.Time.Unix(), rule.Window)
		if rule.Kind == Fall {
			c = -c
		}
		return c, ok
	case Condensation:
		return e.margin(z, r.Time)
	}
	return 0, false
}

// margin is the condensation margin of zone z at t from its latest
// temperature and humidity and the freshest outdoor temperature of the
// same kind: a measured room's against a measured outside, the demo's
// rooms against the demo's outside, never one against the other.
func (e *Engine) margin(z *zone, t time.Time) (float64, bool) {
	in, okT := z.latest[sensors.Temperature]
	rh, okH := z.latest[sensors.Humidity]
	if !okT || !okH {
		return 0, false
	}
	sim := in.sim || rh.sim
	var out sample
	found := false
	for _, oz := range e.zones {
		s, ok := oz.latest[sensors.Temperature]
		if ok && oz.outdoor && s.sim == sim && t.Sub(s.t) <= outdoorFresh && (!found || s.t.After(out.t)) {
			out, found = s, true
		}
	}
	if !found {
		return 0, false
	}
	return CondensationMargin(in.v, rh.v, out.v), true
}

// Tick fires the silence rules of zones that sent nothing for their
// duration; the hub calls it every minute or so.
func (e *Engine) Tick(ctx context.Context) ([]Event, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var b batch
	now := e.now()
	for _, rule := range e.index.stale {
		for name, z := range e.zones {
			if !inScope(rule, name, z.outdoor) {
				continue
			}
			silence := now.Sub(z.lastSeen)
			if st := e.state(rule.ID, name); st.Phase == OK && silence >= rule.For {
				e.fire(&b, rule, st, now, silence.Seconds())
			}
		}
	}
	return e.commit(ctx, &b)
}

// state returns the state of rule in zone, ok since the zero time when new.
func (e *Engine) state(rule, zone string) *State {
	k := stateKey{rule, zone}
	st := e.states[k]
	if st == nil {
		st = &State{Rule: rule, Zone: zone, Phase: OK}
		e.states[k] = st
	}
	return st
}

// commit persists what changed and returns the events.
func (e *Engine) commit(ctx context.Context, b *batch) ([]Event, error) {
	if len(b.order) == 0 && len(b.events) == 0 {
		return nil, nil
	}
	e.stats.Events += int64(len(b.events))
	if e.store == nil {
		return b.events, nil
	}
	states := make([]State, 0, len(b.order))
	for _, k := range b.order {
		states = append(states, *e.states[k])
	}
	if err := e.store.Commit(ctx, states, b.events); err != nil {
		e.stats.CommitErrs++
		return b.events, fmt.Errorf("save alert states: %w", err)
	}
	return b.events, nil
}

// Reset forgets what the engine keeps of zone's m, whose past readings are
// gone (the hub's OnSeriesReset: a measured source took a series the demo
// filled, or the demo's series were forgotten): its rate rules' past
// values and latest value, and the states of the rules that judge it in
// zone, which go back to ok without an event (as a deleted rule's do),
// committed so that a restart does not bring them back. What comes next of
// the series is judged afresh.
func (e *Engine) Reset(ctx context.Context, zone string, m sensors.Measurement) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	z := e.zones[zone]
	if z == nil {
		return nil
	}
	delete(z.series, m)
	delete(z.latest, m)
	var b batch
	now := e.now()
	for _, rule := range e.index.byMeasurement[m] {
		if st := e.states[stateKey{rule.ID, zone}]; st != nil && st.Phase != OK && inScope(rule, zone, z.outdoor) {
			e.move(&b, st, OK, now, 0)
			st.FiredAt = time.Time{}
		}
	}
	_, err := e.commit(ctx, &b)
	return err
}
