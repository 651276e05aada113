package history

import (
	"time"

	"github.com/climated/climated/sensors"
)

// DefaultMaxRetryInterval caps the writer's back-off: after a failed
// flush it retries FlushInterval later (at most DefaultFlushInterval: a
// hub that commits once a minute still retries a second after a failure),
// then waits twice as long after every further failure, up to this. A disk that stays full costs one
// failing commit every 30 s, whatever the rate readings arrive at.
const DefaultMaxRetryInterval = 30 * time.Second

// backoff is the wait before the next retry after w.failures failures in
// a row.
func (w *writer) backoff() time.Duration {
	d := min(w.opts.FlushInterval, DefaultFlushInterval)
	for i := 1; i < w.failures && d < DefaultMaxRetryInterval; i++ {
		d *= 2
	}
	return min(d, DefaultMaxRetryInterval)
}

// hold queues what a Record call handed over for the next flush, noting
// when the writer began to hold unwritten readings (for Health), and keeps
// the queue bounded.
func (w *writer) hold(q *queue, b sensors.Batch) {
	if len(q.rs) == 0 {
		w.waitingSince.Store(time.Now().UnixNano())
	}
	q.add(b)
	// Some slack over the bound, so that a long outage drops readings in
	// chunks rather than copying the whole queue on every arrival.
	if len(q.rs) > DefaultMaxPending+DefaultMaxPending/8 {
		w.bound(q, DefaultMaxPending)
	}
	w.waiting.Store(int64(len(q.rs)))
}

// bound drops the oldest readings beyond limit: the newest matter most, and
// memory must not grow while the disk refuses writes.
func (w *writer) bound(q *queue, limit int) {
	over := len(q.rs) - limit
	if over <= 0 {
		return
	}
	w.log.Error("dropping oldest readings: the database has refused writes too long", "dropped", over)
	q.dropFront(over)
	w.waiting.Store(int64(len(q.rs)))
}
