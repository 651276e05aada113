package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/climated/climated/history"
)

// How often progress is shown: a bar is redrawn often enough to look
// alive; a plain line (a log, a pipe, the journal) only when a person
// would otherwise wonder, so that a quick job prints none.
const (
	barEvery  = 100 * time.Millisecond
	lineEvery = 2 * time.Second
	barWidth  = 24
)

// Bar shows how far a long job has come: on a terminal a bar redrawn
// in place, elsewhere a plain line every few seconds.
type Bar struct {
	w     io.Writer
	tty   bool
	verb  string             // "imported"
	count func(int64) string // "1234 readings", "12.0 MiB"
	// Line is where plain lines go (a log); nil is the writer.
	Line func(string)
	now  func() time.Time

	mu    sync.Mutex
	start time.Time
	shown time.Time // last drawn or printed
	drawn bool      // a bar is on the screen, to be ended with a newline
}

// New is a bar that says verb and count(n) on w: a bar when w is a
// terminal, plain lines otherwise.
func New(w io.Writer, verb string, count func(int64) string) *Bar {
	return &Bar{w: w, tty: IsTerminal(w), verb: verb, count: count, now: time.Now}
}

// Plain prints plain lines even on a terminal (when what the job writes
// goes to the same terminal, and would tear a bar apart).
func (p *Bar) Plain() { p.tty = false }

// IsTerminal: w is a character device (a terminal), not a file or pipe.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Update says n is done; frac is the part of the whole (0 to 1), or
// negative when the whole is not known.
func (p *Bar) Update(n int64, frac float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.start.IsZero() {
		p.start, p.shown = now, now
	}
	every := lineEvery
	if p.tty {
		every = barEvery
	}
	if now.Sub(p.shown) < every {
		return
	}
	p.shown = now
	rate := float64(n) / max(now.Sub(p.start).Seconds(), 1e-3)
	if p.tty {
		// \033[K clears what a longer line before left.
		fmt.Fprintf(p.w, "\r%s%s %s (%s/s)\033[K", bar(frac), p.verb, p.count(n), p.count(int64(rate)))
		p.drawn = true
		return
	}
	msg := fmt.Sprintf("%s %s (%s/s)", p.verb, p.count(n), p.count(int64(rate)))
	if frac >= 0 {
		msg = fmt.Sprintf("%s %s, %.0f%% (%s/s)", p.verb, p.count(n), 100*min(frac, 1), p.count(int64(rate)))
	}
	if p.Line != nil {
		p.Line(msg)
	} else {
		fmt.Fprintln(p.w, msg)
	}
}

// Done ends a bar on the screen, so that what follows starts on a line
// of its own.
func (p *Bar) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// bar is "[#####-----]  50% ", or nothing when the whole is not known
// (the count and rate still move).
func bar(frac float64) string {
	if frac < 0 {
		return ""
	}
	frac = min(frac, 1)
	full := int(frac * barWidth)
	return fmt.Sprintf("[%s%s] %3.0f%% ", strings.Repeat("#", full), strings.Repeat("-", barWidth-full), 100*frac)
}

// Fraction is done/total, or -1 when the total is not known.
func Fraction(done, total int64) float64 {
	if total <= 0 {
		return -1
	}
	return float64(done) / float64(total)
}

// CountingReader counts the bytes read through it, from any goroutine.
type CountingReader struct {
	R io.Reader
	n atomic.Int64
}

func (c *CountingReader) Read(b []byte) (int, error) {
	n, err := c.R.Read(b)
	c.n.Add(int64(n))
	return n, err
}

// N is how many bytes were read so far.
func (c *CountingReader) N() int64 { return c.n.Load() }

// WatchBackup shows a backup's progress by the size of the copy against
// the database's (with its WAL): SQLite's VACUUM INTO says nothing as it
// goes. The copy is usually smaller (it is compacted), hence at most 99%
// until it is done. The returned func stops the watch.
func WatchBackup(w io.Writer, db, copyPath string) (stop func()) {
	var total int64
	for _, p := range []string{db, db + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			total += fi.Size()
		}
	}
	bar := New(w, "copied", func(n int64) string { return history.FormatBytes(uint64(max(n, 0))) })
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(barEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if fi, err := os.Stat(copyPath); err == nil {
					bar.Update(fi.Size(), min(Fraction(fi.Size(), total), 0.99))
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		bar.Done()
	}
}
