package hw

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/climated/climated/sensors"
)

// poller reads one sensor. Its fields are used by its own goroutine only,
// except calls, which Run waits for.
type poller struct {
	*spec
	pool       *busPool
	log        *slog.Logger
	timeout    time.Duration
	logEvery   time.Duration
	staleAfter int

	g       *guard
	dev     device
	readyAt time.Time     // end of the open device's warm-up
	busy    chan struct{} // closed when a call that timed out returns
	calls   sync.WaitGroup

	start         time.Time
	lastSeen      time.Time
	fails         int // consecutive failures
	notReadySince time.Time
	lastLog       time.Time
	suppressed    int
	stale         bool
	absentSaid    bool
}

// notYet says the device is warming up until at: not a failure.
type notYet struct{ at time.Time }

func (n *notYet) Error() string { return "warming up until " + n.at.Format(time.RFC3339) }

// run polls until ctx ends (nil) or the sink stops (its error): the first
// reading at once, then one at every multiple of the interval, retries
// after a failure sooner, doubling from a second up to the interval.
func (p *poller) run(ctx context.Context, sink sensors.Sink) error {
	defer p.drop()
	p.start = time.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	next := p.start
	for {
		timer.Reset(time.Until(next))
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		}
		var err error
		if next, err = p.poll(ctx, sink); err != nil || ctx.Err() != nil {
			return err
		}
	}
}

// poll makes one attempt, hands its readings to sink, and returns when
// to try next; an error only when the sink has stopped.
func (p *poller) poll(ctx context.Context, sink sensors.Sink) (time.Time, error) {
	now := time.Now()
	rs, err := p.attempt(ctx, now)
	if ctx.Err() != nil {
		return now, nil
	}
	if next, wait := p.waitFor(now, err); wait {
		return next, nil
	}
	if errors.Is(err, errNotReady) {
		err = p.fault("read", fmt.Errorf("%w: no new measurement for %s", ErrTimeout, now.Sub(p.notReadySince).Round(time.Second)))
		p.drop()
	}
	if err != nil {
		failedAt := time.Now()
		return failedAt.Add(p.failed(sink, failedAt, err)), nil
	}
	var rerr error
	if len(rs) > 0 {
		rerr = sink.Record(ctx, sensors.Batch{Readings: rs})
	}
	switch {
	case rerr != nil && ctx.Err() != nil:
		return now, nil
	case errors.Is(rerr, sensors.ErrStopped):
		return now, rerr
	case rerr != nil && !errors.Is(rerr, sensors.ErrNotAdmitted): // the sink's guard logs its own
		p.log.Warn("sink rejected readings", "err", rerr)
	}
	at := time.Now()
	if len(rs) > 0 {
		at = rs[0].Time
	}
	p.succeeded(sink, at)
	return now.Truncate(p.interval).Add(p.interval), nil
}

// waitFor says whether err, an attempt's at now, only means wait: a
// device warming up, or one with no new measurement yet (errNotReady,
// asked again a second later) for less than three of its measurement
// periods, and at least 15 s; past that it counts as a failure. next is
// when to try again.
func (p *poller) waitFor(now time.Time, err error) (next time.Time, wait bool) {
	var ny *notYet
	switch {
	case errors.As(err, &ny):
		return ny.at, true
	case errors.Is(err, errNotReady):
		if p.notReadySince.IsZero() {
			p.notReadySince = now
		}
		if limit := max(3*p.chip.period, 15*time.Second); now.Sub(p.notReadySince) < limit {
			return now.Add(notReadyRetry), true
		}
	}
	return time.Time{}, false
}

// stop closes the open device and waits for calls that timed out but
// still run.
func (p *poller) stop() {
	p.drop()
	p.calls.Wait()
}

// drop closes the open device, stopping its goroutine if it has one, so
// that the next attempt opens it anew.
func (p *poller) drop() {
	if c, ok := p.dev.(closer); ok {
		c.close()
	}
	p.dev = nil
}

// attempt opens the sensor if needed and reads it once.
func (p *poller) attempt(ctx context.Context, now time.Time) ([]sensors.Reading, error) {
	if p.busy != nil {
		select {
		case <-p.busy:
			p.busy = nil
		default:
			return nil, p.fault("read", fmt.Errorf("%w: the previous attempt is still running", ErrTimeout))
		}
	}
	if p.dev == nil {
		if !p.offBus && p.g == nil {
			b, err := p.pool.get(p.bus)
			if err != nil {
				return nil, p.fault("open bus", err)
			}
			p.g = &guard{bus: b}
		}
		dev, err := call(ctx, p, func() (device, error) { return p.openDev(ctx, p.g) })
		if err != nil {
			return nil, p.fault("start", err)
		}
		p.dev, p.readyAt = dev, time.Now().Add(p.chip.warmup)
	}
	if p.readyAt.After(time.Now()) {
		return nil, &notYet{at: p.readyAt}
	}
	dev := p.dev
	vs, err := call(ctx, p, dev.sense)
	if errors.Is(err, errNotReady) {
		return nil, err
	}
	if err != nil {
		return nil, p.fault("read", err)
	}
	p.notReadySince = time.Time{}
	rs, err := p.convert(vs, time.Now())
	if err != nil {
		return nil, p.fault("read", err)
	}
	if p.air != nil {
		p.air.note(rs)
	}
	return rs, nil
}

// call runs f, a driver call, for at most the attempt timeout. A call that
// overruns goes on in the background (drivers take no context; the guard
// fails its bus transactions from then on) and the device is opened anew
// once it has returned; a device that such a call opens late is closed.
func call[T any](ctx context.Context, p *poller, f func() (T, error)) (T, error) {
	actx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	if p.g != nil {
		p.g.setContext(actx)
	}
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	done := make(chan struct{})
	p.calls.Go(func() {
		defer close(done)
		v, err := f()
		ch <- result{v, err}
	})
	select {
	case r := <-ch:
		return r.v, r.err
	case <-actx.Done():
		p.drop()
		p.busy = done
		p.calls.Go(func() {
			if c, ok := any((<-ch).v).(closer); ok {
				c.close()
			}
		})
		var zero T
		if ctx.Err() != nil {
			return zero, ctx.Err()
		}
		return zero, fmt.Errorf("%w after %s", ErrTimeout, p.timeout)
	}
}

// fault wraps err as the sensor's *Error, with its kind and, where the
// driver dropped it, the bus error that caused it.
func (p *poller) fault(op string, err error) error {
	if p.g != nil {
		if cause := p.g.cause(); cause != nil && !errors.Is(err, cause) {
			err = fmt.Errorf("%w (bus: %w)", err, cause)
		}
	}
	return &Error{Chip: p.chip.name, Bus: p.bus, Addr: p.addr, Device: p.device, Op: op, Err: classify(err)}
}

func (p *poller) backoff() time.Duration {
	d := retryMin << min(p.fails-1, 20)
	return max(min(d, p.interval), retryMin)
}

func (p *poller) succeeded(sink sensors.Sink, now time.Time) {
	if p.fails > 0 || p.stale {
		p.log.Info("sensor reads again", "failures", p.fails, "was_stale", p.stale)
	}
	p.fails, p.suppressed, p.stale, p.lastSeen = 0, 0, false, now
	sink.Report(sensors.Status{Source: p.name, Zones: []string{p.zone}, LastSeen: now})
}

// failed logs and reports a failure, and returns when to try again: after
// 1 s, then 2, 4 … up to the interval (backoff); after every reinitAfter
// failures in a row the chip is opened anew. The first failure is logged
// at once (the *Error names chip, bus and address), repeats at most every
// logEvery with their count, and the recovery once (succeeded). A sensor
// without a reading for staleAfter intervals is stale: its Status carries
// a *StaleError, it is logged once, and its old readings are never
// repeated as if they were current. An optional sensor that is absent (a hub without Wi-Fi, or
// whose Wi-Fi is not up yet) is not a fault: it is said once and looked
// for again every interval.
func (p *poller) failed(sink sensors.Sink, now time.Time, err error) (retry time.Duration) {
	if p.optional && errors.Is(err, ErrNoWiFi) {
		if !p.absentSaid {
			p.log.Info("no Wi-Fi interface: wifi_status is not reported until one appears", "reason", err)
			p.absentSaid = true
		}
		return p.interval
	}
	p.fails++
	if p.fails >= reinitAfter && p.fails%reinitAfter == 0 {
		p.drop()
	}
	switch {
	case p.fails == 1:
		p.log.Warn("sensor failed; retrying", "err", err)
		p.lastLog, p.suppressed = now, 0
	case now.Sub(p.lastLog) >= p.logEvery:
		p.log.Warn("sensor still failing", "failures", p.fails, "since_last_log", p.suppressed, "err", err)
		p.lastLog, p.suppressed = now, 0
	default:
		p.suppressed++
	}
	since := p.lastSeen
	if since.IsZero() {
		since = p.start
	}
	st := sensors.Status{Source: p.name, Zones: []string{p.zone}, LastSeen: p.lastSeen, Err: err, ErrTime: now}
	if missed := int(now.Sub(since) / p.interval); missed >= p.staleAfter {
		st.Err = &StaleError{Since: since, Missed: missed, Last: err}
		if !p.stale {
			p.log.Warn("sensor stale", "since", since, "missed", missed, "err", err)
			p.stale = true
		}
	}
	sink.Report(st)
	return p.backoff()
}
