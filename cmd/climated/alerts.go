package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/mcp"
)

// alertsReport is what `climated alerts` shows.
type alertsReport struct {
	Rules  []alertRuleLine `json:"rules"`
	Active []alerts.State  `json:"active"`
	Recent []alerts.Event  `json:"recent"`
}

type alertRuleLine struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// runAlerts is `climated alerts`: the rules, the alerts that are on and
// the recent ones, read from the database beside a running hub.
func runAlerts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := newDataFlags("alerts", stdout, stderr)
	since := d.fs.String("since", "7d", "recent alerts from this `TIME` (24h, 7d, 2026-11-01, RFC 3339)")
	limit := d.fs.Int("limit", 20, "at most `N` recent alerts")
	asJSON := d.fs.Bool("json", false, "print JSON")
	cfg, err := d.config(args, stderr)
	if err != nil {
		return err
	}
	if d.fs.NArg() > 0 {
		fmt.Fprint(stderr, usageLine("alerts"))
		return errUsage
	}
	loc, _ := cfg.location()
	from, err := history.ParseTime(*since, time.Now(), loc)
	if err != nil {
		return fmt.Errorf("--since: %w", err)
	}
	if *limit < 1 || *limit > alerts.DefaultMaxHistory {
		return fmt.Errorf("--limit %d: want 1 to %d", *limit, alerts.DefaultMaxHistory)
	}
	rep, err := readAlerts(ctx, cfg.Database, cfg.Alerts.House, from, *limit)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printAlerts(stdout, rep, *since, loc)
	return nil
}

// readAlerts reads the house rules (as the configuration sets them), the
// user rules, the active alerts and the recent history of db.
func readAlerts(ctx context.Context, db string, houseCfg alerts.HouseConfig, since time.Time, limit int) (alertsReport, error) {
	var rep alertsReport
	if _, err := os.Stat(db); err != nil {
		return rep, fmt.Errorf("database %s: %w", db, err)
	}
	adb, err := alerts.OpenDB(ctx, db, &alerts.DBOptions{ReadOnly: true})
	if errors.Is(err, alerts.ErrNoSchema) {
		return rep, fmt.Errorf("%s has no alerts yet: it was last opened by a climated without them (start climated serve once)", db)
	}
	if err != nil {
		return rep, err
	}
	defer adb.Close()
	house, err := houseCfg.Rules()
	if err != nil {
		return rep, err
	}
	view := mcp.NewStoredAlerts(adb, house) // as climated mcp reads them
	rules, err := view.Rules(ctx)
	if err != nil {
		return rep, err
	}
	rep.Rules = []alertRuleLine{}
	for _, r := range rules {
		rep.Rules = append(rep.Rules, alertRuleLine{ID: r.ID, Text: r.Describe()})
	}
	if rep.Active, err = view.Active(ctx); err != nil {
		return rep, err
	}
	if rep.Active == nil {
		rep.Active = []alerts.State{}
	}
	if rep.Recent, err = view.History(ctx, since, time.Time{}, limit); err != nil {
		return rep, err
	}
	return rep, nil
}

func printAlerts(w io.Writer, rep alertsReport, since string, loc *time.Location) {
	stamp := func(t time.Time) string { return t.In(loc).Format("2006-01-02 15:04") }
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Rules (%d; house rules as the configuration sets them):\n", len(rep.Rules))
	for _, r := range rep.Rules {
		fmt.Fprintf(tw, "  %s\t%s\n", r.ID, r.Text)
	}
	tw.Flush()
	if len(rep.Active) == 0 {
		fmt.Fprintln(w, "\nNo alert is on.")
	} else {
		fmt.Fprintf(w, "\nOn now (%d):\n", len(rep.Active))
		for _, s := range rep.Active {
			fmt.Fprintf(tw, "  %s\t%s\t%s since %s\t%g\n", s.Rule, s.Zone, s.Phase, stamp(s.FiredAt), s.Value)
		}
		tw.Flush()
	}
	if len(rep.Recent) == 0 {
		fmt.Fprintf(w, "\nNo alert since %s.\n", since)
		return
	}
	fmt.Fprintf(w, "\nAlerts since %s, newest first (%d):\n", since, len(rep.Recent))
	for _, e := range rep.Recent {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", stamp(e.Time), e.Type, e.Rule, e.Text)
	}
	tw.Flush()
}
