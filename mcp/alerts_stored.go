package mcp

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/climated/climated/history/alerts"
)

// storedAlerts reads what the hub's engine keeps in the database.
type storedAlerts struct {
	db    *alerts.DB
	house []alerts.Rule
}

// NewStoredAlerts is the Alerts that db holds, read beside the hub that
// writes it: house are the house rules as the configuration sets them
// (alerts.HouseConfig.Rules), the user rules and the states are read from
// db on every call. It cannot change rules: the hub's engine would not
// see the change.
func NewStoredAlerts(db *alerts.DB, house []alerts.Rule) Alerts {
	return storedAlerts{db: db, house: house}
}

func (a storedAlerts) Rules(ctx context.Context) ([]alerts.Rule, error) {
	user, err := a.db.Rules(ctx)
	if err != nil {
		return nil, fmt.Errorf("alert rules: %w", err)
	}
	return append(slices.Clone(a.house), user...), nil
}

// Active leaves out the states of rules that are not on (a house rule
// turned off keeps its rows): the engine does not load them either.
func (a storedAlerts) Active(ctx context.Context) ([]alerts.State, error) {
	rules, err := a.Rules(ctx)
	if err != nil {
		return nil, err
	}
	states, err := a.db.Active(ctx)
	if err != nil {
		return nil, fmt.Errorf("active alerts: %w", err)
	}
	return slices.DeleteFunc(states, func(s alerts.State) bool {
		return !slices.ContainsFunc(rules, func(r alerts.Rule) bool { return r.ID == s.Rule })
	}), nil
}

func (a storedAlerts) History(ctx context.Context, since, until time.Time, limit int) ([]alerts.Event, error) {
	return a.db.History(ctx, since, until, limit)
}
