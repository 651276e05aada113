package history

// The writer's loop: what it does on each event (a batch arriving, a
// flush asked for, the retry timer, a tick for compaction and pruning,
// the end of input).

import (
	"context"
	"fmt"
	"time"

	"github.com/climated/climated/sensors"
)

// loop batches what arrives on in and flushes it every FlushInterval or as
// soon as BatchSize readings wait; when in is closed it flushes the rest.
// While writes fail it retries on the retry timer alone, backing off
// (backoff): arrivals only join the queue, however many there are, so a
// full disk does not turn every message into a failing commit.
func (w *writer) loop(in <-chan sensors.Batch, flush <-chan chan error, ping <-chan chan error, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(w.opts.FlushInterval)
	defer tick.Stop()
	keep := time.NewTicker(keepEvery)
	defer keep.Stop()
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	defer retry.Stop()
	ls := &loopState{w: w, in: in, retry: retry}
	defer ls.answer()
	for {
		select {
		case reply := <-flush:
			ls.flushAsked(reply)
			// The interval counts from the latest commit, whoever asked
			// for it: a reading still waits no longer than FlushInterval,
			// and a caller that commits often (the MQTT ingest, for its
			// acknowledgements) does not get the ticks' commits besides.
			tick.Reset(ls.w.opts.FlushInterval)
		case reply := <-ping:
			reply <- nil
		case a := <-w.stateReq:
			ls.drain()
			a.reply <- ls.pending.state(a.key)
		case it, ok := <-in:
			if !ok {
				ls.shutdown()
				return
			}
			ls.arrived(it)
		case <-retry.C:
			ls.flushNow()
			ls.answer()
		case <-tick.C:
			ls.ticked()
		case <-keep.C:
			if w.failures == 0 && len(ls.pending.rs) == 0 {
				w.maybeKeepDays()
			}
		}
	}
}

// loopState is what the writer's loop carries from one event to the next.
type loopState struct {
	w       *writer
	in      <-chan sensors.Batch
	retry   *time.Timer
	pending queue
	// waiters are the Flush calls to answer after the next attempt; their
	// reply channels have room for the answer.
	waiters []chan error
}

// flushNow writes what is pending and arms the retry timer while writes
// fail.
func (ls *loopState) flushNow() {
	if ls.w.flush(&ls.pending); ls.w.failures > 0 {
		ls.retry.Reset(ls.w.backoff())
	} else {
		ls.retry.Stop()
	}
}

// answer tells the waiting Flush calls the outcome of the latest attempt.
func (ls *loopState) answer() {
	var err error
	if len(ls.pending.rs) > 0 {
		err = fmt.Errorf("%d readings not written: the database refused them", len(ls.pending.rs))
		if f := ls.w.failing.Load(); f != nil {
			// A FullError when the disk is full: sensors.ErrDiskFull
			// tells the caller the readings wait in memory.
			err = fmt.Errorf("%w: %w", err, explainFull(ls.w.path, f.err))
		}
	}
	for _, r := range ls.waiters {
		r <- err
	}
	ls.waiters = ls.waiters[:0]
}

// flushAsked handles a Flush call.
func (ls *loopState) flushAsked(reply chan error) {
	// Take what is queued first, so the flush covers every Record
	// that returned before it was asked for.
	ls.drain()
	// While writes fail, a flush asked for waits for the next
	// paced retry and gets its outcome: callers that ask often
	// (the MQTT ingest, once its acknowledgements wait) must not
	// bring back the retry storm the back-off prevents. A full disk is
	// told at once instead (sensors.ErrDiskFull: the readings wait in
	// memory), with a write first if space is back: a statfs says so
	// without a failing commit.
	ls.waiters = append(ls.waiters, reply)
	switch {
	case ls.w.failures == 0:
		ls.flushNow()
		ls.answer()
	case ls.w.full:
		ls.retryIfRoom()
		ls.answer()
	}
}

// retryIfRoom writes what waits if the disk that was full has space
// again.
func (ls *loopState) retryIfRoom() {
	if ls.w.room() {
		ls.flushNow()
	}
}

// drain holds what is queued on in without waiting for more.
func (ls *loopState) drain() {
	for {
		select {
		case b, ok := <-ls.in:
			if !ok {
				return
			}
			ls.w.hold(&ls.pending, b)
		default:
			return
		}
	}
}

// arrived holds b and flushes once a batch is full, unless writes fail.
func (ls *loopState) arrived(b sensors.Batch) {
	ls.w.hold(&ls.pending, b)
	if ls.w.failures == 0 && len(ls.pending.rs) >= ls.w.opts.BatchSize {
		ls.flushNow()
	}
}

// shutdown writes the rest once in is closed, and has the WAL emptied
// when the database closes (see keepWAL).
func (ls *loopState) shutdown() {
	if ls.w.flush(&ls.pending); len(ls.pending.rs) > 0 {
		ls.w.log.Error("readings lost at shutdown: the database refused them", "count", len(ls.pending.rs))
	}
	ls.w.emptyWALOnClose()
}

// ticked flushes, compacts once nothing waits, and runs retention; while
// writes fail it leaves the turn to the retry timer.
func (ls *loopState) ticked() {
	w := ls.w
	if w.failures > 0 {
		// The retry timer's turn, unless the disk was full and has
		// space again: writing resumes within a tick of it.
		if w.full {
			ls.retryIfRoom()
			ls.answer()
		}
		return
	}
	ls.flushNow()
	if len(ls.pending.rs) == 0 {
		w.maybeCompact()
	}
	w.maybePrune()
}

// maybeCompact takes a compaction step once one is due (compactDue) and
// until recent holds nothing from before the current hour; a full disk is
// logged once (sayFull).
func (w *writer) maybeCompact() {
	ctx, now := context.Background(), w.opts.Now()
	due, err := w.compactDue(ctx, now)
	if err == nil && due {
		w.compacting, err = w.compactStep(ctx, now)
	}
	if err != nil && !w.sayFull(err, 0) {
		w.log.Warn("compact recent readings", "err", err)
	}
}

// maybePrune runs retention once every pruneEvery, and on every tick while
// a backlog remains.
func (w *writer) maybePrune() {
	now := w.opts.Now()
	if !w.pruneBacklog && now.Sub(w.prunedAt) < pruneEvery {
		return
	}
	w.prunedAt = now
	finished, err := w.prune(context.Background(), now)
	if err == nil {
		err = w.pruneMarks(context.Background())
	}
	if err != nil && !w.sayFull(err, 0) {
		w.log.Warn("retention", "err", err)
	}
	w.pruneBacklog = !finished
}
