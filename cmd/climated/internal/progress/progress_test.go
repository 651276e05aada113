package progress

import (
	"bytes"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// readings counts as the commands do: "25 readings".
func readings(n int64) string { return config.Plural(int(n), "reading") }

// clockAt is a clock that the test moves.
type clockAt struct{ t time.Time }

func (c *clockAt) now() time.Time { return c.t }

// TestProgress: on a terminal a bar redrawn in place and cleared at the
// end; elsewhere a plain line only every two seconds, so a quick job
// prints none.
func TestProgress(t *testing.T) {
	clock := &clockAt{time.Unix(1_800_000_000, 0)}
	var plain bytes.Buffer
	p := &Bar{w: &plain, verb: "imported", count: readings, now: clock.now}
	for _, step := range []struct {
		after time.Duration
		n     int64
		frac  float64
	}{{0, 0, 0}, {time.Second, 10, 0.2}, {1500 * time.Millisecond, 25, 0.5}, {500 * time.Millisecond, 30, 0.6}} {
		clock.t = clock.t.Add(step.after)
		p.Update(step.n, step.frac)
	}
	p.Done()
	if got, want := plain.String(), "imported 25 readings, 50% (10 readings/s)\n"; got != want {
		t.Errorf("plain: %q, want %q", got, want)
	}

	var tty bytes.Buffer
	p = &Bar{w: &tty, tty: true, verb: "imported", count: readings, now: clock.now}
	p.Update(0, 0)
	clock.t = clock.t.Add(150 * time.Millisecond)
	p.Update(15, 0.25)
	clock.t = clock.t.Add(50 * time.Millisecond)
	p.Update(20, 0.3) // too soon to redraw
	p.Done()
	if got, want := tty.String(), "\r[######------------------]  25% imported 15 readings (100 readings/s)\033[K\r\033[K"; got != want {
		t.Errorf("terminal: %q, want %q", got, want)
	}
}
