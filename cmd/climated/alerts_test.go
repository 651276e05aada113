package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/datacmd"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// TestAlertsCommand runs `climated alerts` beside a running hub whose
// database holds a user rule, its firing and the state it left: the rules
// (house and user) in words, the alert that is on and the recent history.
func TestAlertsCommand(t *testing.T) {
	cfg := demoConfig(t)
	startHub(t, cfg) // serve opens the history, then the alerts' tables
	ctx := context.Background()
	db, err := alerts.OpenDB(ctx, cfg.Database, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	id, err := db.AddRule(ctx, alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: 1200, For: 15 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour).Truncate(time.Second)
	fired := alerts.Event{Type: alerts.Fired, Rule: id, Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2,
		Time: at, Value: 1350, Unit: "ppm", Text: "Bedroom CO2 above 1200 ppm for 15 min: 1350 ppm"}
	state := alerts.State{Rule: id, Zone: "Bedroom", Phase: alerts.Firing, Since: at, FiredAt: at, Value: 1350}
	if err := db.Commit(ctx, []alerts.State{state}, []alerts.Event{fired}); err != nil {
		t.Fatal(err)
	}

	out, errOut, code := runCLI(t, "alerts", "--db", cfg.Database)
	for _, want := range []string{
		"house.co2", "stuffy air: any zone: CO2 above 1400 ppm for 15 min",
		id, "Bedroom CO2 above 1200 ppm for 15 min (clears below 1100 ppm)",
		"On now (1):", "firing since " + at.Format("2006-01-02 15:04"),
		"Alerts in the last 7 days, newest first (1):", "fired", fired.Text,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code != 0 || errOut != "" || t.Failed() {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}

	out, _, code = runCLI(t, "alerts", "--db", cfg.Database, "--json", "--since", "10m")
	var rep datacmd.AlertsReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("--json: exit %d %v: %s", code, err, out)
	}
	if len(rep.Active) != 1 || len(rep.Recent) != 0 || len(rep.Rules) < 2 {
		t.Errorf("--json --since 10m: %s", out)
	}
}

func TestAlertsCommandBadInput(t *testing.T) {
	cfg := demoConfig(t)
	startHub(t, cfg)
	missing := filepath.Join(t.TempDir(), "none.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", missing}, "database " + missing},
		{[]string{"--db", cfg.Database, "--since", "soon"}, `--since: time "soon"`},
		{[]string{"--db", cfg.Database, "--limit", "0"}, "--limit 0: want 1 to"},
		{[]string{"--db", cfg.Database, "extra"}, "usage: climated alerts"},
	} {
		out, errOut, code := runCLI(t, append([]string{"alerts"}, c.args...)...)
		if code == 0 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, errOut, c.want)
		}
	}
}
