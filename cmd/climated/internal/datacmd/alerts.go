package datacmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/mcp"
)

// AlertsReport is what `climated alerts` shows (its --json).
type AlertsReport struct {
	Rules  []AlertRuleLine `json:"rules"`
	Active []alerts.State  `json:"active"`
	Recent []alerts.Event  `json:"recent"`
}

// AlertRuleLine is a rule and what it says in words.
type AlertRuleLine struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// Alerts is `climated alerts`: the rules, the alerts that are on and
// the recent ones, read from the database beside a running hub.
func Alerts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := cli.NewDataFlags("alerts", stdout, stderr)
	since := d.FS.String("since", "7d", "recent alerts from this `TIME` (24h, 7d, 2026-11-01, RFC 3339)")
	limit := d.FS.Int("limit", 20, "at most `N` recent alerts")
	asJSON := d.FS.Bool("json", false, "print JSON")
	cfg, err := d.Config(args, stderr)
	if err != nil {
		return err
	}
	if d.FS.NArg() > 0 {
		fmt.Fprint(stderr, cli.UsageLine("alerts"))
		return cli.ErrUsage
	}
	loc, _ := cfg.Location()
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
	printAlerts(stdout, rep, sinceWords(*since, from, loc), loc)
	return nil
}

// readAlerts reads the house rules (as the configuration sets them), the
// user rules, the active alerts and the recent history of db.
func readAlerts(ctx context.Context, db string, houseCfg alerts.HouseConfig, since time.Time, limit int) (AlertsReport, error) {
	var rep AlertsReport
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
	rep.Rules = []AlertRuleLine{}
	for _, r := range rules {
		rep.Rules = append(rep.Rules, AlertRuleLine{ID: r.ID, Text: r.Describe()})
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

// printAlerts prints rep; since is the period in words (sinceWords).
func printAlerts(w io.Writer, rep AlertsReport, since string, loc *time.Location) {
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
		fmt.Fprintf(w, "\nNo alert %s.\n", since)
		return
	}
	fmt.Fprintf(w, "\nAlerts %s, newest first (%d):\n", since, len(rep.Recent))
	for _, e := range rep.Recent {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", stamp(e.Time), e.Type, e.Rule, e.Text)
	}
	tw.Flush()
}

// sinceWords is --since as a sentence says it: "in the last 7 days",
// "today", "since 2026-11-01 00:00"; from is the time it stands for.
func sinceWords(arg string, from time.Time, loc *time.Location) string {
	arg = strings.ToLower(strings.TrimSpace(arg))
	switch arg {
	case "today":
		return "today"
	case "yesterday":
		return "since yesterday"
	}
	d, err := history.ParseDuration(strings.TrimPrefix(arg, "-"))
	if err != nil {
		return "since " + from.In(loc).Format("2006-01-02 15:04")
	}
	// In the unit typed (7d in days, 2w in weeks, 24h in hours), or a
	// smaller one where it does not divide.
	units := []struct {
		d    time.Duration
		name string
	}{{7 * 24 * time.Hour, "week"}, {24 * time.Hour, "day"}, {time.Hour, "hour"}, {time.Minute, "minute"}, {time.Second, "second"}}
	switch {
	case strings.HasSuffix(arg, "d"):
		units = units[1:]
	case !strings.HasSuffix(arg, "w"):
		units = units[2:]
	}
	for _, u := range units {
		if n := d / u.d; n > 0 && d%u.d == 0 {
			if n == 1 {
				return "in the last " + u.name
			}
			return fmt.Sprintf("in the last %d %ss", n, u.name)
		}
	}
	return "in the last " + d.String()
}
