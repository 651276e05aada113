package history

import (
	"time"

	"github.com/climated/climated/sensors"
)

// DefaultMaxRetryInterval caps the writer's back-off: after a failed
// flush it retries FlushInterval later, then waits twice as long after
// every further failure, up to this. A disk that stays full costs one
// failing commit every 30 s, whatever the rate readings arrive at.
const DefaultMaxRetryInterval = 30 * time.Second

// backoff is the wait before the next retry after w.failures failures in
// a row.
func (w *writer) backoff() time.Duration {
	d := w.opts.FlushInterval
	for i := 1; i < w.failures && d < DefaultMaxRetryInterval; i++ {
		d *= 2
	}
	return min(d, DefaultMaxRetryInterval)
}

// hold queues rs for the next flush, noting when the writer began to hold
// unwritten readings (for Health), and keeps the queue bounded.
func (w *writer) hold(pending, rs []sensors.Reading) []sensors.Reading {
	if len(pending) == 0 {
		w.waitingSince.Store(time.Now().UnixNano())
	}
	pending = append(pending, rs...)
	// Some slack over the bound, so that a long outage drops readings in
	// chunks rather than copying the whole queue on every arrival.
	if len(pending) > DefaultMaxPending+DefaultMaxPending/8 {
		pending = w.bound(pending, DefaultMaxPending)
	}
	w.waiting.Store(int64(len(pending)))
	return pending
}

// bound drops the oldest readings beyond limit: the newest matter most, and
// memory must not grow while the disk refuses writes.
func (w *writer) bound(pending []sensors.Reading, limit int) []sensors.Reading {
	over := len(pending) - limit
	if over <= 0 {
		return pending
	}
	w.log.Error("dropping oldest readings: the database has refused writes too long", "dropped", over)
	pending = append(pending[:0], pending[over:]...)
	w.waiting.Store(int64(len(pending)))
	return pending
}
