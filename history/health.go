package history

import (
	"errors"
	"fmt"
	"time"
)

// DefaultStuckAfter is how long past FlushInterval the oldest unwritten
// reading may wait before Health calls the writer stuck: twice
// DefaultBusyTimeout, the longest a healthy write waits for another
// process's lock.
const DefaultStuckAfter = 2 * DefaultBusyTimeout

// What Health reports, for errors.Is.
var (
	// ErrWritesFailing: the latest write failed; readings wait in memory
	// for the next retry.
	ErrWritesFailing = errors.New("history: writes failing")
	// ErrWriterStuck: readings wait longer than the writer ever takes,
	// and no write has finished, failed or not (a write that hangs).
	ErrWriterStuck = errors.New("history: writer stuck")
)

// Health says whether the history is being written: nil while it is, an
// error (ErrWritesFailing, ErrWriterStuck) saying since when it is not, how
// many readings wait and for how long, and why (a FullError when the file
// system is full).
func (s *Store) Health() error {
	if s.readOnly || s.w == nil {
		return nil
	}
	return explainFull(s.path, s.w.health(time.Now()))
}

func (w *writer) health(now time.Time) error {
	n := w.waiting.Load()
	var age time.Duration
	if since := w.waitingSince.Load(); since != 0 {
		age = now.Sub(time.Unix(0, since)).Round(time.Second)
	}
	if f := w.failing.Load(); f != nil {
		return fmt.Errorf("%w since %s (%d readings waiting, the oldest for %s): %w", ErrWritesFailing, f.since.Format(time.RFC3339), n, age, f.err)
	}
	if age > w.opts.FlushInterval+DefaultStuckAfter {
		return fmt.Errorf("%w: %d readings waiting, the oldest for %s, and no write has finished since", ErrWriterStuck, n, age)
	}
	return nil
}

// Refused is how many readings the database refused for their own sake
// (a constraint) since Open: the writer dropped them and logged them, and
// wrote the rest (for metrics).
func (s *Store) Refused() int64 {
	if s.readOnly || s.w == nil {
		return 0
	}
	return s.w.dropped.Load()
}
