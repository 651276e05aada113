package remotewrite

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
)

// TestClockSetBackAfterSending: a hub whose clock ran a year ahead (a
// Raspberry Pi without a real-time clock, a wrong date set by hand) sends
// the readings it stamped then, and its cursor is kept a year ahead. Once
// the clock is right again, the readings it records are after every
// reading sent but before the cursor: they must be sent, or at least
// counted as waiting, not passed over for a year while /healthz and
// /metrics say the store is up to date with nothing behind.
func TestClockSetBackAfterSending(t *testing.T) {
	st, r, truth, clock, now := yearAhead(t)
	s, err := New(context.Background(), st, Options{Config: Config{URL: r.srv.URL, Backfill: time.Hour, Interval: time.Second},
		CommitInterval: time.Second, Hostname: "hub", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	defer func() { cancel(); <-done; s.Close() }()

	aheadThenRight(t, st, s, clock, truth, 30*time.Minute)
	if testutil.Eventually(func() bool { st := s.Status(); return st.Sent > 10 || st.Behind > 0 }) {
		return
	}
	got := s.Status()
	t.Errorf("10 readings recorded once the clock was set right are neither sent nor counted as waiting: state %q, %d behind, %d sent, sent up to %s",
		got.State, got.Behind, got.Sent, got.SentUpTo.UTC().Format(time.RFC3339))
}

// aheadThenRight records 5 minutes stamped half an hour before the
// clock (a year ahead of truth), waits until s sent them, sets the clock
// right (truth) and records 5 minutes from rightAgo before it. It
// returns the first minute of each.
func aheadThenRight(t *testing.T, st *history.Store, s *Sender, clock *atomic.Int64, truth time.Time, rightAgo time.Duration) (ahead, right time.Time) {
	t.Helper()
	ahead = time.Unix(0, clock.Load()).Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(ahead, 5)...)
	s.Poke()
	testutil.WaitFor(t, "the readings stamped a year ahead sent", func() bool { return s.Status().Sent == 10 })
	clock.Store(truth.UnixNano()) // set right
	right = truth.Add(-rightAgo).Truncate(time.Minute)
	record(t, st, minutes(right, 5)...)
	s.Poke()
	return ahead, right
}

// yearAhead is a history, a receiver, the true time, and a clock a year
// ahead of it with its reading.
func yearAhead(t *testing.T) (*history.Store, *receiver, time.Time, *atomic.Int64, func() time.Time) {
	truth := time.Now()
	clock := new(atomic.Int64)
	clock.Store(truth.AddDate(1, 0, 0).UnixNano())
	return openHistory(t), newReceiver(t), truth, clock, func() time.Time { return time.Unix(0, clock.Load()) }
}
