package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/doctor"
)

// clockFindings is what climated doctor says of the clock.
func clockFindings(t *testing.T, conf, db string) []doctor.Finding {
	t.Helper()
	out, _ := climated("doctor", "--config", conf, "--db", db, "--json").Output()
	var rep struct{ Findings []doctor.Finding }
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, out)
	}
	var clock []doctor.Finding
	for _, f := range rep.Findings {
		if f.Check == "clock" {
			clock = append(clock, f)
		}
	}
	return clock
}

// countAt35 is how many of the database's Indoor temperatures are 35 °C:
// the hour recorded while the clock was a year ahead.
func countAt35(t *testing.T, db string) int {
	t.Helper()
	data, err := climated("export", "--db", db, "--zone", "Indoor", "--measurement", "Temperature").Output()
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return strings.Count(string(data), ",Indoor,Temperature,35,")
}

// The hub's clock was a year ahead while it recorded an hour; set right,
// the hub runs the demo house on that database. climated forget, as the
// start-up log words it, refuses while the hub holds the database; with
// the hub stopped it lists what it would delete and deletes nothing, and
// with --yes deletes the year-ahead hour and nothing else: the doctor's
// clock check is then clean. Before, the advice was an export into a new
// database that lost every summary older than 30 days.
func TestForgetReadingsAheadOfTheClock(t *testing.T) {
	// It ran on for two hours: the hour went on into raw and the rollups.
	db, conf, _ := aheadHistory(t, 2*time.Hour)
	p := startServed(t, "serve", "--config", conf, "--listen", "127.0.0.1:0", "--db", db)
	if !strings.Contains(p.logged(), "climated forget --ahead --yes") {
		p.stop(t)
		t.Fatalf("the start-up log does not say how to delete them:\n%s", p.logged())
	}
	out, errOut, code := runCLI(t, "forget", "--db", db, "--ahead", "--yes")
	if code != 2 || !strings.Contains(errOut, "forget: "+db+" is in use by a running hub (PID ") || !strings.Contains(errOut, "stop the hub first") {
		t.Errorf("forget beside the hub: exit %d, stdout %s\nstderr %s", code, out, errOut)
	}
	p.stop(t)
	if n := countAt35(t, db); n != 7 {
		t.Fatalf("before forget: %d year-ahead readings, want 7", n)
	}
	if c := clockFindings(t, conf, db); len(c) != 1 || c[0].Status != doctor.StatusFail || !strings.Contains(c[0].Detail, "7 readings in the history are stamped ahead") {
		t.Errorf("doctor before forget: %+v", c)
	}

	// Dry runs, after the newest current time and after a time of our own.
	later := rfc3339(time.Now().Add(24 * time.Hour).Truncate(time.Second))
	for _, c := range []struct {
		args  []string
		again string
	}{
		{[]string{"--ahead"}, "climated forget --ahead --yes"},
		{[]string{"--after", later}, "climated forget --after " + later + " --yes"},
	} {
		out, errOut, code = runCLI(t, append([]string{"forget", "--db", db}, c.args...)...)
		for _, want := range []string{"readings stamped after ", " in " + db, "raw", "Indoor/Temperature", "7 readings", "rollup_1h",
			"dry run: nothing deleted", c.again} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("dry run %v: exit %d, no %q in\n%s%s", c.args, code, want, out, errOut)
			}
		}
	}
	if n := countAt35(t, db); n != 7 {
		t.Errorf("the dry runs deleted: %d year-ahead readings left, want 7", n)
	}

	// As the log says, whenever it is read: ahead of the clock as it is
	// when forget runs, so nothing recorded since the advice goes.
	out, errOut, code = runCLI(t, "forget", "--db", db, "--ahead", "--yes")
	if code != 0 || !strings.Contains(out, "deleted 7 readings stamped after ") {
		t.Errorf("forget --yes: exit %d\n%s%s", code, out, errOut)
	}
	if n := countAt35(t, db); n != 0 {
		t.Errorf("after forget: %d year-ahead readings left", n)
	}
	if c := clockFindings(t, conf, db); len(c) != 1 || c[0].Status != doctor.StatusOK {
		t.Errorf("doctor after forget: %+v", c)
	}
	// The demo house's readings are all there.
	data, err := climated("export", "--db", db).Output()
	if lines := strings.Count(string(data), "\n"); err != nil || lines < 10 {
		t.Errorf("after forget, export has %d lines: %v", lines, err)
	}
}

// climated forget without --after or --ahead (or with both), or on a database that is not there,
// says so and changes nothing.
func TestForgetWrongUse(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "none.db")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"forget", "--db", db}, 2, "--after TIME or --ahead is required"},
		{[]string{"forget", "--db", db, "--ahead", "--after", "now"}, 2, "--after TIME or --ahead is required (one of them)"},
		{[]string{"forget", "--db", db, "--after", "soon"}, 2, `--after: time "soon"`},
		{[]string{"forget", "--db", db, "--after", "now"}, 2, "forget: no database at " + db},
	} {
		out, errOut, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("climated %v: exit %d, want %d and %q\n%s%s", c.args, code, c.code, c.want, out, errOut)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("forget created %s", db)
	}
}
