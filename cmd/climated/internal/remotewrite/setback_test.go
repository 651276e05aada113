package remotewrite

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
)

// startOn runs a sender on st with the clock now until stop.
func startOn(t *testing.T, st *history.Store, url string, now func() time.Time) (s *Sender, stop func()) {
	t.Helper()
	// A try that fails on a loaded machine (a timeout) is tried again
	// within a second, not the minute of the default back-off, which the
	// test's patience would not cover.
	return runWith(t, st, Options{Config: Config{URL: url, Backfill: 4 * time.Hour, Interval: time.Second, MaxBackoff: time.Second},
		CommitInterval: time.Second, Hostname: "hub", Now: now})
}

// samples counts the samples r took by series and time, and all told.
func (r *receiver) samples(t *testing.T) (map[string]int, int) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	seen, n := map[string]int{}, 0
	for _, body := range r.took {
		for key, ss := range decode(t, body) {
			for _, s := range ss {
				seen[key+time.UnixMilli(s.ms).UTC().Format(time.RFC3339)]++
				n++
			}
		}
	}
	return seen, n
}

// TestClockSetBackSendsEachReadingOnce: a clock that jumps a year ahead
// and is set right again. The readings recorded before the jump, ahead
// of it and once it is right are each sent once; the sender says the
// clock was set back while the readings sent ahead wait for it; once
// the clock reaches them, it goes on after them without sending them
// again. A restart while the clock is behind them goes on where it was:
// it sends nothing again.
func TestClockSetBackSendsEachReadingOnce(t *testing.T) {
	st := openHistory(t)
	r := newReceiver(t)
	truth := time.Now()
	var clock atomic.Int64
	clock.Store(truth.UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	s, stop := startOn(t, st, r.srv.URL, now)
	defer func() { stop() }()
	sent := func(n int64) func() bool { return func() bool { return s.Status().Sent == n } }

	record(t, st, minutes(truth.Add(-3*time.Hour).Truncate(time.Minute), 5)...)
	s.Poke()
	testutil.WaitFor(t, "the readings before the jump sent", sent(10))
	clock.Store(truth.AddDate(1, 0, 0).UnixNano())
	record(t, st, minutes(truth.AddDate(1, 0, 0).Add(-30*time.Minute).Truncate(time.Minute), 5)...)
	s.Poke()
	testutil.WaitFor(t, "the readings stamped ahead sent", sent(20))
	clock.Store(truth.UnixNano())
	record(t, st, minutes(truth.Add(-30*time.Minute).Truncate(time.Minute), 5)...)
	s.Poke()
	testutil.WaitFor(t, "the readings recorded once the clock is right sent", sent(30))
	testutil.WaitFor(t, "the state says the clock was set back", func() bool { return s.Status().State == StateSetBack })
	if got := s.Status(); got.SentAhead.Unix() != truth.AddDate(1, 0, 0).Add(-26*time.Minute).Truncate(time.Minute).Unix() {
		t.Errorf("sent ahead up to %s", got.SentAhead)
	}
	if seen, n := r.samples(t); len(seen) != 30 || n != 30 {
		t.Errorf("%d samples took, %d different; want the 30 sent once each", n, len(seen))
	}

	// A restart with the clock still behind: it goes on where it was
	// (the database kept the way over), sending nothing again.
	stop()
	s, stop = startOn(t, st, r.srv.URL, now)
	testutil.WaitFor(t, "the restarted sender says the clock was set back", func() bool { return s.Status().State == StateSetBack })
	if _, n := r.samples(t); n != 30 || s.Status().Sent != 30 {
		t.Errorf("%d samples taken, %d sent after the restart; want the 30, none again", n, s.Status().Sent)
	}

	// The clock reaches the readings sent ahead, and passes them.
	clock.Store(truth.AddDate(1, 0, 0).Add(time.Hour).UnixNano())
	record(t, st, minutes(truth.AddDate(1, 0, 0).Truncate(time.Minute), 5)...)
	s.Poke()
	testutil.WaitFor(t, "the readings after those sent ahead sent", func() bool { _, n := r.samples(t); return n == 40 })
	testutil.WaitFor(t, "up to date", func() bool { return s.Status().State == StateUpToDate })
	if got := s.Status(); !got.SentAhead.IsZero() {
		t.Errorf("still sent ahead up to %s once the clock passed it", got.SentAhead)
	}
	if seen, _ := r.samples(t); len(seen) != 40 {
		t.Errorf("%d different samples took; want 40", len(seen))
	}
}

// TestClockSetBackSurvivesRestart: the way over the readings sent ahead
// of the clock is kept in the database. A hub restarted two hours after
// the clock was set right (the store was down meanwhile, or the hub)
// goes on from the last reading it sent: every reading recorded since
// the clock was set right reaches the store once, none stamped ahead
// again, and its status says the clock was set back from its start.
// Held in memory only, the restarted sender went back by the backfill
// (an hour) from its present and passed over the readings before.
func TestClockSetBackSurvivesRestart(t *testing.T) {
	st, r, truth, clock, now := yearAhead(t)
	o := Options{Config: Config{URL: r.srv.URL, Backfill: time.Hour, Interval: time.Second, MaxBackoff: time.Second}, CommitInterval: time.Second, Hostname: "hub", Now: now}
	s, stop := runWith(t, st, o)
	defer func() { stop() }()
	ahead, right := aheadThenRight(t, st, s, clock, truth, 10*time.Minute)
	testutil.WaitFor(t, "the readings recorded once the clock is right sent", func() bool {
		st := s.Status()
		return st.Sent == 20 && st.State == StateSetBack
	})
	stop()

	// Two hours of readings wait in the history while the hub is down;
	// it starts with its clock past them.
	record(t, st, minutes(right.Add(5*time.Minute), 120)...)
	clock.Store(truth.Add(2*time.Hour + 30*time.Minute).UnixNano())
	s, stop = runWith(t, st, o)
	if got := s.Status(); got.SentAhead.IsZero() {
		t.Errorf("restarted: %+v; want the readings sent ahead known from the start", got)
	}
	testutil.WaitFor(t, "the two hours sent", func() bool { return s.Status().Sent >= 260 })
	testutil.WaitFor(t, "up to date, the clock set back", func() bool { return s.Status().State == StateSetBack })
	seen, n := r.samples(t)
	if n != 260 || len(seen) != 260 {
		t.Errorf("%d samples taken, %d different; want the 10 stamped ahead and the 250 recorded since the clock was set right, each once", n, len(seen))
	}
	if k, err := ReadKept(context.Background(), st.Path(), r.srv.URL); err != nil || k.SentAhead.T != ahead.Add(4*time.Minute).Unix() {
		t.Errorf("kept: %+v, %v; want the last reading sent ahead", k, err)
	}
}
