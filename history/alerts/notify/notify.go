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
	DefaultPerAlert   = time.Minute      // the least time between two notifications of one alert
	DefaultMinBackoff = time.Second      // the first retry's wait
	DefaultMaxBackoff = 5 * time.Minute  // the longest wait between retries
	DefaultTimeout    = 10 * time.Second // one delivery attempt
	// DropLogEvery is how often the queue's drops may be logged: one line
	// with the count since the line before, not one per event.
	DropLogEvery = time.Minute
)

// Options tune a Notifier; nil means all defaults.
type Options struct {
	Queue int
	// PerAlert is the least time between two notifications of one alert
	// (one rule in one zone); events of it that come sooner are folded
	// into the latest, sent once the time is up. Negative: no such bound.
	PerAlert   time.Duration
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
	Folded   int64 // events replaced by a later one of the same alert (PerAlert)
	Queued   int   // events waiting now
	Held     int   // events waiting for their alert's PerAlert to pass
}

// Notifier delivers events to one webhook. Notify never blocks; Run, its
// only goroutine, delivers.
type Notifier struct {
	cfg    Config
	opts   Options
	log    *slog.Logger
	client *http.Client

	mu      sync.Mutex
	queue   []item
	seq     uint64             // the number of the next item
	alerts  map[alertKey]*pace // the alerts notified within PerAlert
	drops   int64              // events dropped since the last line about it
	dropLog time.Time          // when that line was logged
	stats   Stats
	wake    chan struct{} // a buffered nudge: the queue has something
}

// item is an event in the queue, with the events it stands for.
type item struct {
	seq    uint64
	ev     alerts.Event
	folded int // earlier events of the same alert folded into this one
}

// New checks cfg and returns a Notifier for it.
func New(cfg Config, opts *Options) (*Notifier, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := &Notifier{cfg: cfg, wake: make(chan struct{}, 1), alerts: map[alertKey]*pace{}}
	if opts != nil {
		n.opts = *opts
	}
	o := &n.opts
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.PerAlert == 0 {
		o.PerAlert = DefaultPerAlert
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
// are skipped unless the configuration asks for them; an alert notified
// less than PerAlert ago waits (pace.go). When the queue is full the
// oldest events are dropped, counted and logged at most once a minute.
func (n *Notifier) Notify(events ...alerts.Event) {
	now := time.Now()
	n.mu.Lock()
	n.release(now)
	for _, e := range events {
		if e.Type == alerts.Cleared && !n.cfg.Cleared {
			continue
		}
		n.admit(e, now)
	}
	warn := n.trim(now)
	n.mu.Unlock()
	if warn != nil {
		n.log.Warn("webhook queue full: dropped the oldest alerts", warn...)
	}
	n.nudge()
}

// push appends an event to the queue; n.mu is held.
func (n *Notifier) push(e alerts.Event, folded int) {
	n.queue = append(n.queue, item{seq: n.seq, ev: e, folded: folded})
	n.seq++
}

// trim drops the oldest events beyond the queue's bound and returns the
// log line's attributes when one is due; n.mu is held.
func (n *Notifier) trim(now time.Time) []any {
	if over := len(n.queue) - n.opts.Queue; over > 0 {
		n.stats.Dropped += int64(over)
		n.drops += int64(over)
		n.queue = append(n.queue[:0], n.queue[over:]...)
	}
	return n.dropWarning(now)
}

// dropWarning returns the attributes of the line about the drops since
// the last one, when there are some and DropLogEvery has passed; n.mu is held.
func (n *Notifier) dropWarning(now time.Time) []any {
	if n.drops == 0 || !n.dropLog.IsZero() && now.Sub(n.dropLog) < DropLogEvery {
		return nil
	}
	args := []any{"dropped", n.drops, "dropped_total", n.stats.Dropped, "queue", n.opts.Queue}
	if !n.dropLog.IsZero() {
		args = append(args, "since", now.Sub(n.dropLog).Round(time.Second))
	}
	n.drops, n.dropLog = 0, now
	return args
}

func (n *Notifier) nudge() {
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
	for _, p := range n.alerts {
		if p.held != nil {
			s.Held++
		}
	}
	return s
}

// Run delivers queued events in order until ctx ends, then returns nil.
// The head of the queue stays there until it is delivered (or refused for
// good), so events arrive once and in order. Meanwhile it sends on the
// events that waited for their alert's PerAlert and logs the count of
// dropped ones when its minute is up.
func (n *Notifier) Run(ctx context.Context) error {
	for {
		it, ok := n.head()
		if !ok {
			if !n.sleep(ctx, 0) {
				return nil
			}
			continue
		}
		if !n.deliver(ctx, it) {
			return nil
		}
	}
}

// head returns the oldest waiting event without removing it.
func (n *Notifier) head() (item, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.queue) == 0 {
		return item{}, false
	}
	return n.queue[0], true
}

// done removes it from the head of the queue, unless Notify dropped it
// meanwhile (the queue overflowed while it was being sent).
func (n *Notifier) done(it item, sent bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.queue) > 0 && n.queue[0].seq == it.seq {
		n.queue = n.queue[1:]
	}
	if sent {
		n.stats.Sent++
	} else {
		n.stats.Rejected++
	}
}

// deliver sends it until the server takes or refuses it, waiting between
// attempts; it returns false when ctx ended first.
func (n *Notifier) deliver(ctx context.Context, it item) bool {
	wait := n.opts.MinBackoff
	for attempt := 1; ; attempt++ {
		err := n.send(ctx, it)
		var perm *permanentError
		switch {
		case err == nil:
			n.done(it, true)
			return true
		case errors.As(err, &perm):
			n.log.Error("webhook refused an alert: dropped (check alerts.webhook's url, topic and token)", "err", err, "alert", it.ev.Text)
			n.done(it, false)
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
		if !n.sleep(ctx, wait) {
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
func (n *Notifier) send(ctx context.Context, it item) error {
	ctx, cancel := context.WithTimeout(ctx, n.opts.Timeout)
	defer cancel()
	req, err := n.cfg.request(ctx, it.ev, it.folded)
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
