package alerts

import (
	"time"

	"github.com/climated/climated/sensors"
)

// step moves rule's state in zone on value v at time t:
//
//	ok       → pending  breached (→ firing at once when For is 0)
//	pending  → firing   still breached For after it began
//	pending  → ok       no longer breached (the hold starts again)
//	firing   → clearing recovered past the clear level (→ ok at once when ClearFor is 0)
//	clearing → ok       still recovered ClearFor after it began
//	clearing → firing   breached again before that
//
// A value older than the state's latest change is ignored, so a late
// reading cannot undo what a newer one did. Silence rules only clear here:
// any reading of their zone ends the silence.
func (e *Engine) step(b *batch, rule *Rule, zone string, t time.Time, v float64) {
	st := e.state(rule.ID, zone)
	if t.Before(st.Since) {
		return
	}
	if rule.Kind == Stale {
		if st.Active() {
			e.clear(b, rule, st, t, t.Sub(st.FiredAt).Seconds())
		}
		return
	}
	switch st.Phase {
	case OK:
		if rule.breached(v) {
			e.hold(b, rule, st, t, v)
		}
	case Pending:
		switch {
		case !rule.breached(v):
			e.move(b, st, OK, t, v)
		case t.Sub(st.Since) >= rule.For:
			e.fire(b, rule, st, t, v)
		}
	case Firing:
		if rule.recovered(v) {
			e.release(b, rule, st, t, v)
		}
	case Clearing:
		switch {
		case !rule.recovered(v):
			e.move(b, st, Firing, t, v)
		case t.Sub(st.Since) >= rule.ClearFor:
			e.clear(b, rule, st, t, v)
		}
	}
}

// hold starts the hold before firing, or fires when there is none.
func (e *Engine) hold(b *batch, rule *Rule, st *State, t time.Time, v float64) {
	if rule.For <= 0 {
		e.fire(b, rule, st, t, v)
		return
	}
	e.move(b, st, Pending, t, v)
}

// release starts the hold before clearing, or clears when there is none.
func (e *Engine) release(b *batch, rule *Rule, st *State, t time.Time, v float64) {
	if rule.ClearFor <= 0 {
		e.clear(b, rule, st, t, v)
		return
	}
	e.move(b, st, Clearing, t, v)
}

func (e *Engine) move(b *batch, st *State, p Phase, t time.Time, v float64) {
	st.Phase, st.Since, st.Value = p, t, v
	b.changed(stateKey{st.Rule, st.Zone})
}

func (e *Engine) fire(b *batch, rule *Rule, st *State, t time.Time, v float64) {
	e.move(b, st, Firing, t, v)
	st.FiredAt = t
	e.emit(b, rule, st, Fired, t, v)
}

func (e *Engine) clear(b *batch, rule *Rule, st *State, t time.Time, v float64) {
	fired := st.FiredAt
	e.move(b, st, OK, t, v)
	st.FiredAt = time.Time{}
	e.emit(b, rule, st, Cleared, t, v, fired)
}

// emit adds an event unless the rate bound refuses it.
func (e *Engine) emit(b *batch, rule *Rule, st *State, typ EventType, t time.Time, v float64, fired ...time.Time) {
	if !e.limit.allow(e.now()) {
		e.stats.Suppressed++
		if e.stats.Suppressed == 1 || e.stats.Suppressed%100 == 0 {
			e.log.Warn("alert events over the rate bound: not sent", "rule", rule.ID, "zone", st.Zone, "suppressed", e.stats.Suppressed)
		}
		return
	}
	ev := Event{Type: typ, Rule: rule.ID, Kind: rule.Kind, House: rule.House, Zone: st.Zone,
		Measurement: rule.Measurement, Time: t, Value: v, Unit: rule.unit()}
	var since time.Time
	if len(fired) > 0 {
		since = fired[0]
	}
	ev.Text = rule.eventText(typ, st.Zone, v, t.Sub(since))
	b.events = append(b.events, ev)
}

// unit is the unit of the values a rule judges.
func (r Rule) unit() string {
	switch r.Kind {
	case Stale:
		return "s"
	case Condensation:
		return "°C"
	}
	info, _ := sensors.Lookup(r.Measurement)
	return info.Unit
}
