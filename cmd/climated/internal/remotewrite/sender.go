package remotewrite

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/loglimit"
)

// History is what the sender reads of the hub's history.
type History interface {
	ReadingsAfter(ctx context.Context, from history.Position, to int64, limit int) ([]history.Stored, error)
	NextAfter(ctx context.Context, from history.Position) (int64, bool, error)
	CountAfter(ctx context.Context, from history.Position, upto int64) (int64, error)
	AmountTotals(ctx context.Context, at history.Position) (map[int64]int64, error)
	Path() string
}

// Options configure a Sender; Config is required.
type Options struct {
	Config Config
	// CommitInterval is the history's: the default delay follows from it.
	CommitInterval time.Duration
	Logger         *slog.Logger
	Now            func() time.Time // nil: time.Now
	// Hostname is the default instance label; "" is the machine's name.
	Hostname string
}

// Window bounds: how far ahead of the cursor one read of the history
// looks, halved when a read fills a batch and doubled when it finds
// little, so that the readings sorted for a batch stay few.
const (
	minWindow     = 60
	maxWindow     = 86400
	behindEvery   = 10 * time.Second // how often the readings behind are counted
	firstBackoff  = time.Second
	refusedBefore = 30 * time.Second // the first wait after a refusal
)

// Sender pushes the history's readings to one store.
type Sender struct {
	cfg     Config
	hist    History
	client  *client
	db      *cursorDB
	log     *slog.Logger
	logs    *loglimit.Limiter
	rate    *rate.Limiter
	now     func() time.Time
	extra   []label
	wake    chan struct{}
	host    string // the store's host, which /healthz names
	proto   string // the protocol sent: cfg.Protocol, or 1.0 once the store answered as a 1.0 receiver; Run's
	said415 bool   // tookOther logged; Run's

	// held is the Unix second up to which the history is known to hold
	// every reading, while its flushes fail; 0 when they do not.
	held atomic.Int64

	cur     cursor     // owned by Run
	back    *setBack   // while the clock is behind readings sent (setback.go); Run's
	watch   clockWatch // Run's
	window  int64
	counted time.Time // when behind was last counted

	mu sync.Mutex
	st Status
}

// New opens the cursor of the store cfg names in h's database (starting
// it at the delay before now the first time, so that a new store gets
// the readings from now on) and makes the sender; Run sends.
func New(ctx context.Context, h History, o Options) (*Sender, error) {
	cfg := o.Config.withDefaults(o.CommitInterval)
	if err := cfg.CheckFiles(); err != nil {
		return nil, fmt.Errorf("remote write to %s: %w", cfg.URL, err)
	}
	c, err := newClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("remote write: %w", err)
	}
	db, err := openCursor(ctx, h.Path(), cfg.URL, false)
	if err != nil {
		return nil, fmt.Errorf("remote write: %w", err)
	}
	s := &Sender{cfg: cfg, hist: h, client: c, db: db, log: o.Logger, logs: loglimit.New(10 * time.Minute),
		rate: rate.NewLimiter(rate.Limit(cfg.MaxRate), max(cfg.MaxRate, cfg.BatchSize)), now: o.Now,
		extra: extraLabels(cfg.Labels, o.Hostname), wake: make(chan struct{}, 1), window: 3600, proto: cfg.Protocol}
	if s.now == nil {
		s.now = time.Now
	}
	if u, err := url.Parse(cfg.URL); err == nil {
		s.host = u.Host
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if err := s.start(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("remote write: %w", err)
	}
	return s, nil
}

// start reads the cursor, or makes one at the delay before now with the
// amounts' counters up to there.
func (s *Sender) start(ctx context.Context) error {
	cur, found, err := s.db.load(ctx)
	if err != nil {
		return err
	}
	if !found {
		cur.pos = history.End(s.upto() - int64(s.cfg.Backfill.Seconds()))
		if cur.totals, err = s.hist.AmountTotals(ctx, cur.pos); err != nil {
			return err
		}
		if err := s.db.save(ctx, cur, nil); err != nil {
			return err
		}
		s.log.Info("remote write: a new store; it gets the readings from here on", "from", time.Unix(cur.pos.T, 0).UTC().Format(time.RFC3339))
	}
	if cur.sims, err = s.db.simulated(ctx); err != nil {
		return err
	}
	s.cur, s.back, s.cur.back = cur, cur.back, nil
	s.st = Status{State: StateStarting, URL: s.cfg.URL, Sent: cur.sent, Failed: cur.failed, Protocol: s.proto}
	if s.back != nil {
		s.st.SentAhead = time.Unix(s.back.ahead.T, 0)
		s.log.Info("remote write: the clock was set back behind readings sent before the restart: the readings recorded since go on from where they were",
			"sent_up_to", stamp(cur.pos.T), "sent_ahead_up_to", stamp(s.back.ahead.T))
	}
	if cur.sentAt > 0 {
		s.st.LastSuccess = time.Unix(cur.sentAt, 0)
	}
	return nil
}

// extraLabels are the configured labels over the defaults (job climated,
// instance the host's name), sorted, those set to "" left out.
func extraLabels(cfg map[string]string, host string) []label {
	if host == "" {
		host, _ = os.Hostname()
	}
	all := map[string]string{"job": "climated", "instance": host}
	for k, v := range cfg {
		all[k] = v
	}
	var out []label
	for k, v := range all {
		if v != "" {
			out = append(out, label{k, v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Close closes the cursor's connection, after Run returned.
func (s *Sender) Close() error { return s.db.Close() }

// Poke says the history committed readings: the sender looks at once
// instead of at its next interval.
func (s *Sender) Poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// upto is the last second whose readings are sent now: those older than
// the delay, and while the history's flushes fail, those before its last
// good one.
func (s *Sender) upto() int64 {
	u := s.now().Add(-s.cfg.Delay).Unix()
	if h := s.held.Load(); h != 0 {
		u = min(u, h-1)
	}
	return u
}

// Hold says the history's flushes fail since at: the readings recorded
// after it may be in memory only, so none from at on is sent (the cursor
// would pass them by) until Release.
func (s *Sender) Hold(at time.Time) { s.held.CompareAndSwap(0, max(at.Unix(), 1)) }

// Release says a flush succeeded: everything recorded is committed.
func (s *Sender) Release() { s.held.Store(0) }

// Run sends until ctx ends: a batch at a time while readings wait, each
// retried until the store takes or refuses it for good, then waits for a
// commit (Poke) or the interval.
func (s *Sender) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		b, err := s.next(ctx)
		switch {
		case err != nil:
			s.failed(err, Retry)
			s.sleep(ctx, s.cfg.MaxBackoff, nil)
		case b == nil:
			s.caughtUp(ctx)
			s.sleep(ctx, s.untilNext(ctx), s.wake)
		default:
			s.deliver(ctx, *b)
			s.countBehind(ctx, false)
		}
	}
	return nil
}

// next reads the next batch from the history; nil when nothing waits.
func (s *Sender) next(ctx context.Context) (*batch, error) {
	if err := s.checkClock(ctx); err != nil {
		return nil, err
	}
	for {
		b, err := s.read(ctx)
		if b != nil || err != nil {
			return b, err
		}
		if passed, err := s.passAhead(ctx); !passed || err != nil {
			return nil, err
		}
	}
}

// read reads the next batch after the cursor up to sendable; nil when
// nothing waits there.
func (s *Sender) read(ctx context.Context) (*batch, error) {
	upto := s.sendable()
	from := s.cur.pos
	to := min(upto, from.T+s.window)
	for {
		rs, err := s.hist.ReadingsAfter(ctx, from, to, s.cfg.BatchSize)
		if err != nil {
			return nil, err
		}
		if len(rs) > 0 {
			s.adapt(len(rs))
			b := makeBatch(rs, s.cur.totals, s.cur.sims, s.extra)
			return &b, nil
		}
		if to >= upto {
			return nil, nil
		}
		// Nothing in the window: on to the next reading after the
		// cursor, wherever it is. A reading committed within the window
		// since it was read (stamped older than the delay: a backlog) is
		// read with the next window, not passed over.
		t, ok, err := s.hist.NextAfter(ctx, from)
		if err != nil || !ok || t > upto {
			return nil, err
		}
		if t > to {
			from = history.End(t - 1)
		}
		to = min(upto, t+s.window)
	}
}

// untilNext is how long to wait, caught up: until the oldest committed
// reading not yet sent is old enough, at most the interval.
func (s *Sender) untilNext(ctx context.Context) time.Duration {
	t, ok, err := s.hist.NextAfter(ctx, s.cur.pos)
	if err != nil || !ok {
		return s.cfg.Interval
	}
	d := time.Unix(t+1, 0).Add(s.cfg.Delay).Sub(s.now())
	return min(max(d, time.Second), s.cfg.Interval)
}

// adapt sizes the window by how full the last read was.
func (s *Sender) adapt(n int) {
	switch {
	case n >= s.cfg.BatchSize:
		s.window = max(minWindow, s.window/2)
	case n < s.cfg.BatchSize/4:
		s.window = min(maxWindow, s.window*2)
	}
}

// deliver sends b until the store takes it or refuses it for good, then
// moves the cursor past it.
func (s *Sender) deliver(ctx context.Context, b batch) {
	if b.samples == 0 { // only readings without a family
		s.advance(ctx, b, Sent)
		return
	}
	if err := s.rate.WaitN(ctx, min(b.samples, s.rate.Burst())); err != nil {
		return
	}
	body := s.encode(b)
	wait := firstBackoff
	var tries versionTries
	for ctx.Err() == nil {
		r := s.client.send(ctx, body, s.proto, b.samples)
		if ctx.Err() != nil {
			return
		}
		before := s.proto
		resend := s.negotiate(&tries, &r)
		if s.proto != before {
			body = s.encode(b)
		}
		if resend {
			continue
		}
		switch r.outcome {
		case Sent, Dropped:
			if r.outcome == Dropped {
				s.failed(fmt.Errorf("%d samples given up (the protocol says not to send them again): %w", b.samples, r.err), Dropped)
			}
			s.advance(ctx, b, r.outcome)
			return
		case Refused:
			s.failed(r.err, Refused)
			wait = max(wait, min(refusedBefore, s.cfg.MaxBackoff))
		default:
			s.failed(r.err, Retry)
		}
		wait = min(max(wait, r.retryAfter), s.cfg.MaxBackoff)
		s.countBehind(ctx, false)
		s.sleep(ctx, wait, nil)
		wait *= 2
	}
}

// advance moves the cursor past b and keeps it, with b's samples counted
// as sent or failed.
func (s *Sender) advance(ctx context.Context, b batch, o Outcome) {
	b.apply(&s.cur)
	if o == Dropped {
		s.cur.failed += int64(b.samples)
	} else {
		s.cur.sent += int64(b.samples)
		s.cur.sentAt = s.now().Unix()
	}
	err := s.db.save(ctx, s.kept(), b.changed())
	if err != nil && ctx.Err() == nil {
		// The store has the samples; the cursor is kept in memory and
		// written with the next batch. Only a stop before that sends
		// this batch again.
		err = s.db.save(ctx, s.kept(), nil)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.Sent, s.st.Failed = s.cur.sent, s.cur.failed
	if o != Dropped {
		if s.st.State == StateRetrying || s.st.State == StateRefused {
			s.log.Info("remote write: the store takes readings again")
		}
		s.st.State, s.st.Error = StateCatchingUp, ""
		s.st.LastSuccess = s.now()
	}
	if err != nil {
		s.st.Error = err.Error()
		s.log.Error("remote write: the cursor could not be kept; it is tried again with the next batch", "err", err)
	}
	s.st.SentUpTo = time.Unix(s.cur.pos.T, 0)
}

// sleep waits d, or until ctx ends or wake has something.
func (s *Sender) sleep(ctx context.Context, d time.Duration, wake <-chan struct{}) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	case <-wake:
	}
}

// failed records why a request failed, in the status and, bounded, in
// the log.
func (s *Sender) failed(err error, o Outcome) {
	state := map[Outcome]string{Retry: StateRetrying, Refused: StateRefused, Dropped: StateCatchingUp}[o]
	s.mu.Lock()
	s.st.State, s.st.Error = state, err.Error()
	s.st.Failures++
	s.mu.Unlock()
	key := state
	var se *StatusError
	if errors.As(err, &se) {
		key = fmt.Sprintf("%s %d", state, se.Code)
	}
	if ok, held := s.logs.Allow(key, s.now()); ok {
		s.log.Warn("remote write: "+state, "err", err, "similar_since_last", held)
	}
}
