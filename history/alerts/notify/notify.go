package notify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/climated/climated/history/alerts"
)

// Tunables; Options fields left zero take these.
const (
	DefaultQueue      = 100              // events waiting; beyond it the oldest is dropped
	DefaultMinBackoff = time.Second      // the first retry's wait
	DefaultMaxBackoff = 5 * time.Minute  // the longest wait between retries
	DefaultTimeout    = 10 * time.Second // one delivery attempt
)

// Options tune a Notifier; nil means all defaults.
type Options struct {
	Queue      int
	MinBackoff time.Duration
	MaxBackoff time.Duration
	Timeout    time.Duration
	Client     *http.Client // nil means a client with Timeout
	Logger     *slog.Logger // nil discards
}

// Stats counts deliveries, for metrics and tests.
type Stats struct {
	Sent     int64 // events the server accepted
	Dropped  int64 // events dropped because the queue was full
	Rejected int64 // events the server refused for good (4xx)
	Retries  int64 // failed attempts that were retried
	Queued   int   // events waiting now
}

// Notifier delivers events to one webhook. Notify never blocks; Run, its
// only goroutine, delivers.
type Notifier struct {
	cfg    Config
	opts   Options
	log    *slog.Logger
	client *http.Client

	mu    sync.Mutex
	queue []alerts.Event
	stats Stats
	wake  chan struct{} // a buffered nudge: the queue has something
}

// New checks cfg and returns a Notifier for it.
func New(cfg Config, opts *Options) (*Notifier, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := &Notifier{cfg: cfg, wake: make(chan struct{}, 1)}
	if opts != nil {
		n.opts = *opts
	}
	o := &n.opts
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(DefaultMaxBackoff, o.MinBackoff)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	n.client = o.Client
	if n.client == nil {
		n.client = &http.Client{Timeout: o.Timeout}
	}
	n.log = o.Logger
	if n.log == nil {
		n.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return n, nil
}

// Notify queues events for delivery and returns at once. Cleared events
// are skipped unless the configuration asks for them. When the queue is
// full the oldest events are dropped, counted and logged.
func (n *Notifier) Notify(events ...alerts.Event) {
	n.mu.Lock()
	for _, e := range events {
		if e.Type == alerts.Cleared && !n.cfg.Cleared {
			continue
		}
		n.queue = append(n.queue, e)
	}
	if over := len(n.queue) - n.opts.Queue; over > 0 {
		n.stats.Dropped += int64(over)
		n.log.Warn("webhook queue full: dropped the oldest alerts", "dropped", over, "dropped_total", n.stats.Dropped, "queue", n.opts.Queue)
		n.queue = append(n.queue[:0], n.queue[over:]...)
	}
	n.mu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// Stats returns the counters.
func (n *Notifier) Stats() Stats {
	n.mu.Lock()
	defer n.mu.Unlock()
	s := n.stats
	s.Queued = len(n.queue)
	return s
}

// Run delivers queued events in order until ctx ends, then returns nil.
// The head of the queue stays there until it is delivered (or refused for
// good), so events arrive once and in order.
func (n *Notifier) Run(ctx context.Context) error {
	for {
		e, ok := n.head()
		if !ok {
			select {
			case <-n.wake:
				continue
			case <-ctx.Done():
				return nil
			}
		}
		if !n.deliver(ctx, e) {
			return nil
		}
	}
}

// head returns the oldest waiting event without removing it.
func (n *Notifier) head() (alerts.Event, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.queue) == 0 {
		return alerts.Event{}, false
	}
	return n.queue[0], true
}

// done removes e from the head of the queue, unless Notify dropped it
// meanwhile (the queue overflowed while it was being sent).
func (n *Notifier) done(e alerts.Event, sent bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.queue) > 0 && n.queue[0] == e {
		n.queue = n.queue[1:]
	}
	if sent {
		n.stats.Sent++
	} else {
		n.stats.Rejected++
	}
}

// deliver sends e until the server takes or refuses it, waiting between
// attempts; it returns false when ctx ended first.
func (n *Notifier) deliver(ctx context.Context, e alerts.Event) bool {
	wait := n.opts.MinBackoff
	for attempt := 1; ; attempt++ {
		err := n.send(ctx, e)
		var perm *permanentError
		switch {
		case err == nil:
			n.done(e, true)
			return true
		case errors.As(err, &perm):
			n.log.Error("webhook refused an alert: dropped (check alerts.webhook's url, topic and token)", "err", err, "alert", e.Text)
			n.done(e, false)
			return true
		case ctx.Err() != nil:
			return false
		}
		n.mu.Lock()
		n.stats.Retries++
		n.mu.Unlock()
		if attempt == 1 || attempt%10 == 0 {
			n.log.Warn("webhook unreachable: retrying", "err", err, "attempt", attempt, "retry_in", wait)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return false
		}
		wait = min(2*wait, n.opts.MaxBackoff)
	}
}

// permanentError is a refusal that retrying will not change.
type permanentError struct {
	status int
	err    error
}

func (e *permanentError) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return fmt.Sprintf("HTTP %d", e.status)
}

// send makes one attempt.
func (n *Notifier) send(ctx context.Context, e alerts.Event) error {
	ctx, cancel := context.WithTimeout(ctx, n.opts.Timeout)
	defer cancel()
	req, err := n.cfg.request(ctx, e)
	if err != nil {
		return &permanentError{err: err}
	}
	resp, err := n.client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	switch s := resp.StatusCode; {
	case s >= 200 && s < 300:
		return nil
	case s == http.StatusTooManyRequests || s == http.StatusRequestTimeout || s >= 500:
		return fmt.Errorf("HTTP %d", s)
	default:
		return &permanentError{status: s}
	}
}
