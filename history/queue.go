package history

import "github.com/climated/climated/sensors"

// notes are the marks and states of a transaction's calls, written with
// its readings.
type notes struct {
	marks  []string
	states []sensors.State
}

// queue is what the writer holds until it is written: the readings in the
// order they came, and where each Record call's readings end. A call's
// readings are written in one transaction, together with its mark, so
// that the mark is in the history if and only if they are (a call loses
// readings only to the bound, when the disk refuses writes too long).
type queue struct {
	rs    []sensors.Reading
	calls []call // in order of end
}

type call struct {
	end    int // len(rs) once the call's readings were added
	mark   string
	states []sensors.State
}

// add queues one Record call's batch (its readings valid).
func (q *queue) add(b sensors.Batch) {
	q.rs = append(q.rs, b.Readings...)
	q.calls = append(q.calls, call{len(q.rs), b.Mark, b.States})
}

// txFrom is the transaction that starts at call ci: whole calls, as many
// as fit in size readings, and at least one (a call larger than size is a
// transaction of its own). It returns where the transaction's readings
// end, the marks and states of its calls, and the call after it.
func (q *queue) txFrom(ci, size int) (end int, n notes, next int) {
	start := 0
	if ci > 0 {
		start = q.calls[ci-1].end
	}
	for next = ci; next < len(q.calls); next++ {
		c := q.calls[next]
		if next > ci && c.end-start > size {
			break
		}
		end = c.end
		if c.mark != "" {
			n.marks = append(n.marks, c.mark)
		}
		n.states = append(n.states, c.states...)
	}
	return end, n, next
}

// dropFront forgets the first n readings (written, or dropped for the
// bound) and the calls that ended among them; a call that lost only some
// of its readings to the bound keeps its mark, since the rest will be
// written.
func (q *queue) dropFront(n int) {
	if n <= 0 {
		return
	}
	q.rs = q.rs[:copy(q.rs, q.rs[n:])]
	keep := q.calls[:0]
	for _, c := range q.calls {
		if c.end -= n; c.end > 0 {
			keep = append(keep, c)
		}
	}
	q.calls = keep
}

// state is the newest state of key the queue holds.
func (q *queue) state(key string) pendingState {
	for i := len(q.calls) - 1; i >= 0; i-- {
		sts := q.calls[i].states
		for j := len(sts) - 1; j >= 0; j-- {
			if sts[j].Key == key {
				return pendingState{sts[j].Value, true}
			}
		}
	}
	return pendingState{}
}

func (q *queue) reset() {
	if cap(q.rs) > keepQueue {
		// A burst (a backfill, an outage's backlog) is over: its array
		// would otherwise stay on the heap for the hub's lifetime (1.5 MB
		// after the demo house's first day).
		q.rs, q.calls = nil, nil
		return
	}
	q.rs, q.calls = q.rs[:0], q.calls[:0]
}

// keepQueue is the most readings whose room the queue keeps once empty:
// a steady house's flush holds a few hundred.
const keepQueue = 1024
