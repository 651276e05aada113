package mcp

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// Alerts is what the server reads of the alert rules: the rules, the
// alerts that are on and the history. NewAlerts makes one of the running
// engine and its database, NewStoredAlerts of the database alone (a
// process beside the hub). Errors are the database's.
type Alerts interface {
	// Rules are the house rules that are on, then the user rules.
	Rules(ctx context.Context) ([]alerts.Rule, error)
	// Active are the alerts that are on, the earliest first.
	Active(ctx context.Context) ([]alerts.State, error)
	// History is the latest events of [since, until), newest first, at
	// most limit; a zero since or until leaves that end open.
	History(ctx context.Context, since, until time.Time, limit int) ([]alerts.Event, error)
}

// AlertEditor is Alerts that also changes the user rules. The server
// offers create_alert and delete_alert only when Options.Alerts is one
// (NewAlerts' is): a rule is only watched by the engine that keeps it.
type AlertEditor interface {
	Alerts
	// Zones are the zones a rule may name.
	Zones() []string
	// Create validates and keeps a user rule (errors say what is valid;
	// an invalid rule's is an *alerts.InvalidError).
	Create(ctx context.Context, r alerts.Rule) (alerts.Rule, error)
	// Delete forgets a user rule.
	Delete(ctx context.Context, id string) error
}

// engineAlerts is an engine with the database it persists to.
type engineAlerts struct {
	e  *alerts.Engine
	db *alerts.DB
}

// NewAlerts is the AlertEditor of an engine and the database it keeps its
// history in.
func NewAlerts(e *alerts.Engine, db *alerts.DB) AlertEditor { return engineAlerts{e: e, db: db} }

func (a engineAlerts) Rules(context.Context) ([]alerts.Rule, error)   { return a.e.Rules(), nil }
func (a engineAlerts) Active(context.Context) ([]alerts.State, error) { return a.e.Active(), nil }
func (a engineAlerts) Zones() []string                                { return a.e.Zones() }
func (a engineAlerts) Delete(ctx context.Context, id string) error    { return a.e.Delete(ctx, id) }

func (a engineAlerts) Create(ctx context.Context, r alerts.Rule) (alerts.Rule, error) {
	return a.e.Create(ctx, r)
}

func (a engineAlerts) History(ctx context.Context, since, until time.Time, limit int) ([]alerts.Event, error) {
	return a.db.History(ctx, since, until, limit)
}

// ruleView is a rule as the assistant reads it.
type ruleView struct {
	ID          string   `json:"id"`
	Text        string   `json:"text"` // Describe()
	Kind        string   `json:"kind"`
	House       bool     `json:"house"`
	Zone        string   `json:"zone,omitempty"`
	Scope       string   `json:"scope,omitempty"`
	Measurement string   `json:"measurement,omitempty"`
	Threshold   float64  `json:"threshold"`
	Clear       *float64 `json:"clear,omitempty"` // none for stale rules
	Window      string   `json:"window,omitempty"`
	For         string   `json:"for,omitempty"`
	ClearFor    string   `json:"clear_for,omitempty"`
}

func viewRule(r alerts.Rule) ruleView {
	v := ruleView{ID: r.ID, Text: r.Describe(), Kind: string(r.Kind), House: r.House, Zone: r.Zone, Scope: string(r.Scope),
		Measurement: string(r.Measurement), Threshold: r.Threshold, Clear: r.Clear,
		Window: durationWord(r.Window), For: durationWord(r.For), ClearFor: durationWord(r.ClearFor)}
	if c := r.DefaultClear(); v.Clear == nil && !math.IsNaN(c) {
		v.Clear = &c
	}
	return v
}

func durationWord(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

// activeView is an alert that is on.
type activeView struct {
	Rule      string  `json:"rule"`
	Text      string  `json:"text"` // the rule's Describe()
	Zone      string  `json:"zone"`
	Phase     string  `json:"phase"` // firing, or clearing (recovered, holding)
	Since     int64   `json:"since"`
	FiredAt   int64   `json:"fired_at"`
	LocalTime string  `json:"local_time"` // FiredAt in the hub's time zone
	Value     float64 `json:"value"`
	Unit      string  `json:"unit,omitempty"`
}

// active lists the alerts that are on with their rules in words.
func (s *Server) active(ctx context.Context) ([]activeView, error) {
	all, err := s.opts.Alerts.Rules(ctx)
	if err != nil {
		return nil, s.alertReadErr(err)
	}
	states, err := s.opts.Alerts.Active(ctx)
	if err != nil {
		return nil, s.alertReadErr(err)
	}
	rules := map[string]alerts.Rule{}
	for _, r := range all {
		rules[r.ID] = r
	}
	out := []activeView{}
	for _, st := range states {
		r := rules[st.Rule]
		out = append(out, activeView{Rule: st.Rule, Text: r.Describe(), Zone: st.Zone, Phase: string(st.Phase),
			Since: st.Since.Unix(), FiredAt: st.FiredAt.Unix(), LocalTime: s.localTime(st.FiredAt.Unix()),
			Value: st.Value, Unit: unitOf(r.Measurement)})
	}
	return out, nil
}

// alertReadErr logs a failed read of the alerts (the database's fault,
// not the caller's) and says so to the caller.
func (s *Server) alertReadErr(err error) error {
	s.log.Warn("mcp: cannot read the alerts", "err", err)
	return fmt.Errorf("cannot read the alerts: %w", err)
}

func unitOf(m sensors.Measurement) string {
	if info, ok := sensors.Lookup(m); ok {
		return info.Unit
	}
	return ""
}

// eventView is an alert that fired or cleared, as the history shows it.
type eventView struct {
	Type        string  `json:"type"` // fired or cleared
	Rule        string  `json:"rule"`
	Kind        string  `json:"kind"`
	House       bool    `json:"house"`
	Zone        string  `json:"zone"`
	Measurement string  `json:"measurement,omitempty"`
	Value       float64 `json:"value"`
	Unit        string  `json:"unit,omitempty"`
	Text        string  `json:"text"`
	Time        int64   `json:"time"`
	LocalTime   string  `json:"local_time"`
}

func (s *Server) viewEvent(ev alerts.Event) eventView {
	return eventView{Type: string(ev.Type), Rule: ev.Rule, Kind: string(ev.Kind), House: ev.House, Zone: ev.Zone,
		Measurement: string(ev.Measurement), Value: ev.Value, Unit: ev.Unit, Text: ev.Text,
		Time: ev.Time.Unix(), LocalTime: s.localTime(ev.Time.Unix())}
}
