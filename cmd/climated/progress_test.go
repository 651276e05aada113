package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// clockAt is a clock that the test moves.
type clockAt struct{ t time.Time }

func (c *clockAt) now() time.Time { return c.t }

// TestProgress: on a terminal a bar redrawn in place and cleared at the
// end; elsewhere a plain line only every two seconds, so a quick job
// prints none.
func TestProgress(t *testing.T) {
	clock := &clockAt{time.Unix(1_800_000_000, 0)}
	var plain bytes.Buffer
	p := &progress{w: &plain, verb: "imported", count: readings, now: clock.now}
	for _, step := range []struct {
		after time.Duration
		n     int64
		frac  float64
	}{{0, 0, 0}, {time.Second, 10, 0.2}, {1500 * time.Millisecond, 25, 0.5}, {500 * time.Millisecond, 30, 0.6}} {
		clock.t = clock.t.Add(step.after)
		p.update(step.n, step.frac)
	}
	p.done()
	if got, want := plain.String(), "imported 25 readings, 50% (10 readings/s)\n"; got != want {
		t.Errorf("plain: %q, want %q", got, want)
	}

	var tty bytes.Buffer
	p = &progress{w: &tty, tty: true, verb: "imported", count: readings, now: clock.now}
	p.update(0, 0)
	clock.t = clock.t.Add(150 * time.Millisecond)
	p.update(15, 0.25)
	clock.t = clock.t.Add(50 * time.Millisecond)
	p.update(20, 0.3) // too soon to redraw
	p.done()
	if got, want := tty.String(), "\r[######------------------]  25% imported 15 readings (100 readings/s)\033[K\r\033[K"; got != want {
		t.Errorf("terminal: %q, want %q", got, want)
	}
}

// TestImportProgressNotOnATerminal: a pipe gets no bar (no carriage
// returns), only the summary.
func TestImportProgressNotOnATerminal(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "in.csv")
	var b strings.Builder
	b.WriteString("time,zone,measurement,value,source\n")
	start := time.Now().Add(-time.Hour).Truncate(time.Second)
	for i := range 500 {
		b.WriteString(start.Add(time.Duration(i)*time.Second).UTC().Format(time.RFC3339) + ",Indoor,Temperature,21.5,test\n")
	}
	os.WriteFile(csv, []byte(b.String()), 0o600)
	out, errOut, code := runCLI(t, "import", "--db", filepath.Join(dir, "x.db"), csv)
	if code != 0 || strings.Contains(errOut, "\r") || !strings.Contains(out, "imported 500 readings from "+csv) || !strings.Contains(out, "(0 broken lines skipped)") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
}
