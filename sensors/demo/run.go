package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/climated/climated/sensors"
)

// backfillBatch is about how many readings Run hands the sink in one Record
// call while backfilling (whole steps: a batch may be a step larger).
const backfillBatch = 256

// maxCatchUp is how many intervals Run catches up on, one after the other,
// when it fell behind the clock (a slow sink); beyond that (a suspended
// machine, a clock set forward) it skips the gap, as a real station that was
// switched off would have one. When the clock goes back by more than that,
// Run starts again from the new time rather than wait for the old one.
const maxCatchUp = 10

// Run records the house's readings into sink: first those of the backfill
// period, if Options.Backfill is set, then the readings of every Interval
// boundary of the clock as it comes, each step in one Record call. After
// every Record it reports a Status per zone. When the interval is not a
// divisor of RainInterval, a step also carries the Rain readings of the
// RainInterval boundaries since the previous step, so no rain is lost.
// Every reading is At's, so a step recorded twice (the clock went back)
// repeats the same values; its Rain readings, amounts that a sink adds up,
// are not repeated.
//
// Run returns nil when ctx ends, and an error only when the sink is stopped
// (sensors.ErrStopped). Other errors from Record are logged and reported in
// the zones' Status, and Run goes on.
func (h *House) Run(ctx context.Context, sink sensors.Sink) error {
	h.log.Info("demo house: readings are simulated, not measured",
		"seed", int64(h.seed), "interval", h.interval, "location", h.loc.String(),
		"zones", zoneNames, "backfill", h.backfill)
	r := &runner{h: h, sink: sink}
	now := h.now()
	if h.backfill > 0 {
		if stop, err := r.backfill(ctx, now.Add(-h.backfill), now); stop {
			return err
		}
	}

	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	next := ceil(now, h.interval)
	for {
		now := h.now()
		switch {
		case now.Sub(next) > maxCatchUp*h.interval:
			skipTo := now.Truncate(h.interval)
			h.log.Info("demo house: fell behind the clock, skipping the gap", "from", next, "to", skipTo)
			next, r.last = skipTo, time.Time{}
		case next.Sub(now) > maxCatchUp*h.interval:
			restart := ceil(now, h.interval)
			h.log.Warn("demo house: the clock went back, recording from the new time", "from", next, "to", restart)
			next, r.last = restart, time.Time{}
		}
		if wait := next.Sub(now); wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				return nil
			case <-timer.C:
			}
			continue // ask the clock again
		}
		if ctx.Err() != nil {
			return nil
		}
		if stop, err := r.record(ctx, r.step(next), next); stop {
			return err
		}
		next = next.Add(h.interval)
	}
}

// runner is the state of one Run.
type runner struct {
	h         *House
	sink      sensors.Sink
	last      time.Time // the latest step, zero before the first
	highWater time.Time // the latest step ever
	lastSeen  time.Time // the latest step the sink accepted
}

// Backfill records the house's readings of the Interval boundaries in
// [from, to) into sink, in batches, and returns when they are all recorded:
// a hub that starts with a gap in its history fills it before it serves.
// It returns ctx.Err() if ctx ends first.
func (h *House) Backfill(ctx context.Context, sink sensors.Sink, from, to time.Time) error {
	r := &runner{h: h, sink: sink}
	if stop, err := r.backfill(ctx, from, to); stop {
		if err == nil {
			err = ctx.Err()
		}
		return err
	}
	return nil
}

// backfill records the steps of [from, to) in batches.
func (r *runner) backfill(ctx context.Context, from, to time.Time) (stop bool, err error) {
	var batch []sensors.Reading
	steps := 0
	for t := ceil(from, r.h.interval); t.Before(to); t = t.Add(r.h.interval) {
		if ctx.Err() != nil {
			return true, nil
		}
		batch = append(batch, r.step(t)...)
		steps++
		if len(batch) >= backfillBatch {
			if stop, err := r.record(ctx, batch, t); stop {
				return true, err
			}
			batch = nil // a new slice: the sink may keep the old one
		}
	}
	if len(batch) > 0 {
		if stop, err := r.record(ctx, batch, r.last); stop {
			return true, err
		}
	}
	r.h.log.Debug("demo house: backfilled", "steps", steps, "from", from, "to", to)
	return false, nil
}

// step returns the readings of the step at t: the Rain readings of the
// RainInterval boundaries after the previous step and before t, then At(t).
// Rain is an amount that the sink adds up, so rain at or before the latest
// step already recorded (the clock went back) is left out; the other values
// are the same as before and merely replace themselves.
func (r *runner) step(t time.Time) []sensors.Reading {
	var rs []sensors.Reading
	if !r.last.IsZero() {
		for b := r.last.Truncate(RainInterval).Add(RainInterval); b.Before(t); b = b.Add(RainInterval) {
			if b.After(r.highWater) {
				rs = append(rs, r.h.rainReading(b))
			}
		}
	}
	for _, rd := range r.h.At(t) {
		if rd.Measurement != sensors.Rain || t.After(r.highWater) {
			rs = append(rs, rd)
		}
	}
	r.last = t
	if t.After(r.highWater) {
		r.highWater = t
	}
	return rs
}

// record hands rs, the readings up to at, to the sink and reports the zones'
// status. It says to stop when ctx ended or the sink stopped.
func (r *runner) record(ctx context.Context, rs []sensors.Reading, at time.Time) (stop bool, err error) {
	err = r.sink.Record(ctx, sensors.Batch{Readings: rs})
	if errors.Is(err, sensors.ErrNotAdmitted) {
		err = nil // the sink's guard refused them (the clock's), and logs so: the house was seen
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return true, nil
	case errors.Is(err, sensors.ErrStopped):
		return true, fmt.Errorf("demo house: %w", err)
	case err != nil:
		// The sink keeps the valid readings of a batch, so the house was seen.
		r.h.log.Warn("demo house: sink rejected readings", "time", at, "err", err)
	}
	r.lastSeen = at
	for _, zone := range zoneNames {
		st := sensors.Status{Source: SourcePrefix + zone, Zones: []string{zone}, LastSeen: r.lastSeen, Err: err}
		if err != nil {
			st.ErrTime = at
		}
		r.sink.Report(st)
	}
	return false, nil
}

// ceil is the first multiple of d at or after t.
func ceil(t time.Time, d time.Duration) time.Time {
	c := t.Truncate(d)
	if c.Before(t) {
		c = c.Add(d)
	}
	return c
}
