package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
)

// A QoS 1 message is acknowledged only once its readings are committed to
// the history: a hub killed before that gets the message again from the
// broker when its persistent session resumes. The readings of
// acknowledgement-waiting messages are recorded as they arrive (live at
// once), each drain's as a journalled batch, and committed together by
// one Flush, at most ackDelay (Options.CommitWait: the history's
// commit interval, in the hub) after the first of them arrived or as
// soon as ackBatch wait, so that a burst costs a few commits and not one
// per message, and acknowledgements never wait for the history's own
// flush tick (1 s) while the broker's in-flight window (mosquitto's
// max_inflight_messages, 20 by default) holds back what follows.
const (
	ackDelay = 200 * time.Millisecond
	ackBatch = 10
	// finalCommit bounds the last commit when the ingest stops.
	finalCommit = 5 * time.Second
	// ackQueue is how many batches of acknowledgements may wait for the
	// acknowledging goroutine.
	ackQueue = 64
)

// intake is what one drain takes from the queue.
type intake struct {
	batch
	acks []func()           // acknowledgements, in the order received
	keys []mqtt.DeliveryKey // journal marks of the messages with readings
}

// accept processes one message into w. A message the broker delivers again
// (DUP) whose readings are already recorded is processed for the device's
// state (a rain counter's base) but its readings are dropped. One that
// was being recorded when the previous run was killed is looked up in the
// history by its batch's mark (settleBatch): if the mark is there, so are its
// readings; if not, it is recorded at its first arrival's time. Without
// the history's answer it is recorded at that time all the same, which
// the history's (series, second) key makes harmless for gauges (see the
// mqtt packages in docs/development.md for amounts).
func (in *Ingest) accept(item inbound, w *intake) {
	m := item.msg
	journal := in.journal != nil && m.QoS > 0
	var k mqtt.DeliveryKey
	if journal {
		k = mqtt.MessageKey(m)
	}
	if journal && m.Duplicate {
		if mk, ok := in.journal.Lookup(k); ok {
			if mk.State == mqtt.MarkUncertain {
				mk.State = in.settleBatch(mk.Batch)
			}
			switch mk.State {
			case mqtt.MarkUncertain, mqtt.MarkLost:
				why := "delivered again, not recorded before the hub stopped: recorded at its first arrival's time"
				if mk.State == mqtt.MarkUncertain {
					why = "delivered again, perhaps recorded: recorded at its first arrival's time"
				}
				in.note(slog.LevelInfo, why, m.Topic, m.Payload, nil, item.at)
				item.at = mk.At
			default:
				n := len(w.readings)
				in.process(item, &w.batch)
				w.readings = w.readings[:n]
				in.stats.redelivered.Add(1)
				in.note(slog.LevelDebug, "delivered again, already recorded: readings dropped", m.Topic, m.Payload, nil, item.at)
				w.acks = append(w.acks, m.Ack)
				return
			}
		}
	}
	n := len(w.readings)
	in.process(item, &w.batch)
	if m.QoS > 0 {
		w.acks = append(w.acks, m.Ack)
	}
	if journal && len(w.readings) > n {
		in.journal.Hold(k, item.at)
		w.keys = append(w.keys, k)
	}
}

// durable holds what waits for the history to make it durable. It
// belongs to Run's goroutine.
type durable struct {
	flush    sensors.Sink // acknowledges only what its Flush says is committed
	readings []sensors.Reading
	keys     []mqtt.DeliveryKey
	recorded bool          // readings handed to the sink await a Flush that failed
	acks     []func()      // waiting, in the order received
	wait     time.Duration // the longest the first waiting message waits (Options.CommitWait)
	timer    *time.Timer
	waiting  bool // timer runs

	ackq      chan []func()
	ackerDone chan struct{}
}

func newDurable(sink sensors.Sink, wait time.Duration) *durable {
	if wait <= 0 {
		wait = ackDelay
	}
	d := &durable{wait: wait, timer: time.NewTimer(time.Hour), ackq: make(chan []func(), ackQueue), ackerDone: make(chan struct{})}
	d.timer.Stop()
	d.flush = sink
	// Acknowledgements go through a goroutine of their own: paho sends
	// them through the connection's writer, which a slow network can
	// hold up, and the drain must not wait for it.
	go func() {
		defer close(d.ackerDone)
		for acks := range d.ackq {
			for _, ack := range acks {
				ack()
			}
		}
	}()
	return d
}

// settle takes what one drain collected: with nothing to wait for it is
// recorded and acknowledged at once, else held for the next commit.
func (in *Ingest) settle(ctx context.Context, sink sensors.Sink, w *intake) error {
	d := in.durable
	if d == nil { // a drain outside Run (tests): at once
		if len(w.readings) > 0 {
			if _, err := in.record(ctx, sink, sensors.Batch{Readings: w.readings}); err != nil {
				return err
			}
		}
		for _, ack := range w.acks {
			ack()
		}
		return nil
	}
	d.readings = append(d.readings, w.readings...)
	d.keys = append(d.keys, w.keys...)
	d.acks = append(d.acks, w.acks...)
	if len(d.acks) == 0 || len(d.readings) == 0 && !d.recorded {
		// Nothing to wait for: only QoS 0 messages, or messages without
		// readings (bad, ignored) that nothing recorded before them holds
		// up.
		return in.commit(ctx, sink)
	}
	// Recorded at once, so that the hub's live values (get_climate, the
	// dashboard, alerts) have them now; only the acknowledgements wait
	// for the commit.
	if taken, err := in.recordHeld(ctx, sink); err != nil || !taken {
		return err
	}
	switch {
	case len(d.acks) >= ackBatch:
		return in.commit(ctx, sink)
	case !d.waiting:
		d.timer.Reset(d.wait)
		d.waiting = true
	}
	return nil
}

// commit records the held readings, has the sink commit them, journals
// that, and acknowledges the waiting messages. A failed Flush leaves them
// waiting for the next attempt, ackDelay later: the broker keeps them
// meanwhile and sends no more than its in-flight window.
func (in *Ingest) commit(ctx context.Context, sink sensors.Sink) error {
	d := in.durable
	d.timer.Stop()
	d.waiting = false
	if taken, err := in.recordHeld(ctx, sink); err != nil || !taken {
		return err
	}
	if d.recorded {
		if flushed, err := in.flushRecorded(ctx); err != nil || !flushed {
			return err
		}
	}
	if len(d.acks) > 0 {
		select {
		case d.ackq <- d.acks:
			d.acks = nil
		case <-ctx.Done():
			// Stopping: stop sends them, with a deadline of its own.
		}
	}
	return nil
}

// recordHeld journals the held messages as a batch and hands their
// readings to the sink; taken is false when ctx ended first (stop tries
// again). With nothing held it has nothing to do and reports taken.
func (in *Ingest) recordHeld(ctx context.Context, sink sensors.Sink) (taken bool, err error) {
	d := in.durable
	if len(d.readings) == 0 {
		return true, nil
	}
	batch := sensors.Batch{Readings: d.readings}
	if in.journal != nil && len(d.keys) > 0 {
		b, err := in.journal.Begin(d.keys)
		if err != nil {
			in.logLimited("session", "mqtt: cannot journal messages; a redelivery after a crash may be recorded twice", err)
		}
		batch.Mark = in.journal.MarkName(b)
	}
	taken, err = in.record(ctx, sink, batch)
	if err != nil || !taken {
		return taken, err
	}
	d.readings, d.keys = nil, nil // the sink may keep the slice
	d.recorded = d.recorded || len(d.acks) > 0
	return true, nil
}

// flushRecorded has the sink commit what was recorded and journals that;
// flushed is false when the flush failed and the acknowledgements wait
// for the next attempt, ackDelay later. While the sink's disk is full
// (sensors.ErrDiskFull) it reports flushed all the same, so that the
// messages are acknowledged once the sink holds their readings: the
// broker would otherwise keep them, stop sending anything newer, and
// drop what arrives once its own queue is full (mosquitto's
// max_queued_messages, 1000: 25 s at 40 messages a second), while the
// history holds 200,000 readings and writes them within a second
// of space being freed. What that costs: a hub that stops before space
// is freed loses them. The journal's commit waits for the real one
// (recorded stays set, so the next commit asks again).
func (in *Ingest) flushRecorded(ctx context.Context) (flushed bool, err error) {
	d := in.durable
	if err := d.flush.Flush(ctx); err != nil {
		if errors.Is(err, sensors.ErrStopped) {
			return false, fmt.Errorf("mqtt ingest: %w", err)
		}
		if errors.Is(err, sensors.ErrDiskFull) {
			in.logLimited("full", "mqtt: the history's disk is full: messages are acknowledged once their readings wait in memory, which are written once space is freed and lost if the hub stops before", err)
			return true, nil
		}
		if ctx.Err() == nil {
			in.logLimited("flush", "mqtt: history flush failed; acknowledgements wait", err)
			d.timer.Reset(ackDelay)
			d.waiting = true
		}
		return false, nil
	}
	d.recorded = false
	if in.journal != nil {
		if err := in.journal.Commit(); err != nil {
			in.logLimited("session", "mqtt: cannot journal a commit; a redelivery after a crash may be recorded again", err)
		}
	}
	return true, nil
}

// stop commits what waits, bounded by finalCommit, and waits for the
// acknowledgements to be handed to paho (which drops them if the
// connection is already gone).
func (in *Ingest) stop(ctx context.Context, sink sensors.Sink) {
	d := in.durable
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalCommit)
	defer cancel()
	if len(d.readings) > 0 || d.recorded || len(d.acks) > 0 {
		if err := in.commit(cctx, sink); err != nil {
			in.log.Warn("mqtt: final commit", "err", err)
		}
	}
	close(d.ackq)
	select {
	case <-d.ackerDone:
	case <-cctx.Done():
		in.log.Warn("mqtt: acknowledgements still being sent at shutdown")
	}
}

// record hands a batch to the sink and reports whether it took it;
// only a stopped sink is an error. A batch the sink's guards refused
// whole (sensors.ErrNotAdmitted: the clock guard logs why) is taken,
// its messages acknowledged: sent again, it would be refused again.
func (in *Ingest) record(ctx context.Context, sink sensors.Sink, b sensors.Batch) (bool, error) {
	err := sink.Record(ctx, b)
	switch {
	case err == nil:
		in.stats.readings.Add(uint64(len(b.Readings)))
	case ctx.Err() != nil:
		return false, nil
	case errors.Is(err, sensors.ErrStopped):
		return false, fmt.Errorf("mqtt ingest: %w", err)
	case errors.Is(err, sensors.ErrNotAdmitted):
		// Taken: nothing of it is the sink's trouble.
	default:
		// Readings were validated, so this is the sink's trouble;
		// the valid ones are kept all the same.
		in.stats.sinkErrors.Add(1)
		in.logLimited("record", "mqtt: record readings", err)
	}
	return true, nil
}

func (in *Ingest) logLimited(kind, msg string, err error) {
	if ok, n := in.limit.Allow(kind, in.opts.Now()); ok {
		in.log.Error(msg, "err", err, "suppressed", n)
	}
}

// settleTimeout bounds the history's answer about a batch.
const settleTimeout = 5 * time.Second

// settleBatch asks the history whether batch, pending when the previous run
// ended, was committed, and returns its messages' state: committed, lost,
// or still uncertain when there is no history to ask or it cannot answer.
func (in *Ingest) settleBatch(batch uint64) mqtt.MarkState {
	if in.opts.Marked == nil {
		return mqtt.MarkUncertain
	}
	ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
	defer cancel()
	name := in.journal.MarkName(batch)
	found, err := in.opts.Marked(ctx, []string{name})
	if err != nil {
		in.logLimited("session", "mqtt: cannot ask the history about the previous run's last messages; a redelivery may be recorded twice", err)
		return mqtt.MarkUncertain
	}
	state, err := in.journal.Settle(batch, found[name])
	if err != nil {
		in.logLimited("session", "mqtt: cannot journal a commit; a redelivery after a crash may be recorded again", err)
	}
	return state
}
