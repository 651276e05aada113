package mcpcmd

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/mcp"
)

const (
	// alertFollowEvery is how often climated mcp looks for new alerts: as
	// often as it looks for new readings.
	alertFollowEvery = history.DefaultRefresh
	// alertFollowBatch bounds the events one look passes on.
	alertFollowBatch = 100
)

// stdioAlerts are the alerts climated mcp reads beside the hub: the rules
// (the house rules as the configuration sets them, the user rules the hub
// keeps), the alerts that are on and the history, from the database's
// alert tables opened read-only. Rules are not changed here: the hub's
// engine reads them once, at its start, and would not see a change.
type stdioAlerts struct {
	db   *alerts.DB
	view mcp.Alerts
	log  *slog.Logger
}

// openStdioAlerts opens the alert tables of db; nil, with a warning, when
// they cannot be read (a database a climated without alerts wrote): the
// rest of the MCP surface is served all the same.
func openStdioAlerts(ctx context.Context, db string, house alerts.HouseConfig, log *slog.Logger) *stdioAlerts {
	rules, err := house.Rules()
	if err != nil {
		log.Warn("no alerts over stdio: the configuration's house rules", "err", err)
		return nil
	}
	adb, err := alerts.OpenDB(ctx, db, &alerts.DBOptions{ReadOnly: true})
	if err != nil {
		if errors.Is(err, alerts.ErrNoSchema) {
			err = errors.New("the database has no alert tables yet (start climated serve once)")
		}
		log.Warn("no alerts over stdio", "err", err)
		return nil
	}
	return &stdioAlerts{db: adb, view: mcp.NewStoredAlerts(adb, rules), log: log}
}

// alerts is the server's Options.Alerts: nil when there are none.
func (a *stdioAlerts) alerts() mcp.Alerts {
	if a == nil {
		return nil
	}
	return a.view
}

func (a *stdioAlerts) close() {
	if a != nil {
		a.db.Close()
	}
}

// follow passes srv, every interval, the events the hub has added since,
// so that subscribers of the alert resources hear of them as from the hub
// itself; stop ends it and waits.
func (a *stdioAlerts) follow(ctx context.Context, srv *mcp.Server, every time.Duration) (stop func()) {
	if a == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.run(ctx, srv, every)
	}()
	return func() { cancel(); <-done }
}

func (a *stdioAlerts) run(ctx context.Context, srv *mcp.Server, every time.Duration) {
	last, err := a.db.LatestEvent(ctx)
	if err != nil {
		a.log.Warn("alerts: cannot read the history; new alerts are not passed on", "err", err)
		return
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		evs, next, err := a.db.EventsAfter(ctx, last, alertFollowBatch)
		if err != nil {
			if !failing && ctx.Err() == nil {
				a.log.Warn("alerts: cannot read new alerts; trying again", "err", err)
			}
			failing = true
			continue
		}
		failing, last = false, next
		srv.AlertEvent(ctx, evs)
	}
}
