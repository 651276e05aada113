package remotewrite

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// waitSamples waits up to 8 s for want samples at the receiver.
func waitSamples(t *testing.T, r *receiver, want int) (map[string]int, int) {
	t.Helper()
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		if _, n := r.samples(t); n >= want {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	return r.samples(t)
}

// TestClockSetBackThreeTimesSendsEachReadingOnce: a year ahead and set
// right, a month ahead and set right, a week ahead and set right, each
// before the clock reaches the readings of the jump before: the readings
// recorded each time reach the store, each once.
func TestClockSetBackThreeTimesSendsEachReadingOnce(t *testing.T) {
	st, r, truth, clock, now := yearAhead(t)
	o := Options{Config: Config{URL: r.srv.URL, Backfill: time.Hour, Interval: time.Second, MaxBackoff: time.Second}, CommitInterval: time.Second, Hostname: "hub", Now: now}
	s, stop := runWith(t, st, o)
	defer stop()
	aheadThenRight(t, st, s, clock, truth, 10*time.Minute)
	testutil.WaitFor(t, "the readings recorded once the clock is right sent", func() bool { return s.Status().Sent == 20 })
	want := 20
	for i, jump := range []time.Time{truth.AddDate(0, 1, 0), truth.AddDate(0, 0, 7)} {
		clock.Store(jump.UnixNano())
		record(t, st, minutes(jump.Add(-30*time.Minute).Truncate(time.Minute), 5)...)
		s.Poke()
		want += 10
		testutil.WaitFor(t, "the readings stamped ahead sent", func() bool { return s.Status().Sent == int64(want) })
		right := truth.Add(time.Duration(i+1) * time.Hour)
		clock.Store(right.UnixNano())
		record(t, st, minutes(right.Add(-30*time.Minute).Truncate(time.Minute), 5)...)
		s.Poke()
		want += 10
		testutil.WaitFor(t, "the readings recorded once right sent", func() bool { _, n := r.samples(t); return n >= want })
	}
	seen, n := waitSamples(t, r, want)
	if n != want || len(seen) != want {
		t.Errorf("%d samples taken, %d different; want %d, each once (status %+v)", n, len(seen), want, s.Status())
	}
}

// TestClockSetBackLessThanMaxAheadSendsEachReadingOnce: the hub's clock
// right, readings sent; it jumps ten minutes ahead (less than
// climate.MaxAhead; the sender sees it jump), readings stamped up to five
// minutes past the truth sent; it is set right, and readings of the five
// minutes before the truth recorded since. Each reading reaches the
// store once: those sent before the jump and those sent ahead are not
// sent again.
func TestClockSetBackLessThanMaxAheadSendsEachReadingOnce(t *testing.T) {
	st := openHistory(t)
	r := newReceiver(t)
	truth := time.Now()
	clock := new(atomic.Int64)
	clock.Store(truth.UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	o := Options{Config: Config{URL: r.srv.URL, Backfill: time.Hour, Interval: time.Second, MaxBackoff: time.Second}, CommitInterval: time.Second, Hostname: "hub", Now: now}
	s, stop := runWith(t, st, o)
	defer stop()
	record(t, st, minutes(truth.Add(-30*time.Minute).Truncate(time.Minute), 20)...) // to 11 minutes ago
	s.Poke()
	testutil.WaitFor(t, "the readings before the jump sent", func() bool { return s.Status().Sent == 40 })
	time.Sleep(1500 * time.Millisecond) // a look at the right clock
	fast := truth.Add(10 * time.Minute)
	clock.Store(fast.UnixNano())
	ahead := truth.Truncate(time.Minute).Add(30 * time.Second)
	record(t, st, minutes(ahead, 5)...) // 0:30 to 4:30 past the truth
	s.Poke()
	testutil.WaitFor(t, "the readings stamped ahead sent", func() bool { return s.Status().Sent == 50 })
	clock.Store(truth.UnixNano()) // set right
	record(t, st, minutes(truth.Add(-5*time.Minute).Truncate(time.Minute), 5)...)
	s.Poke()
	seen, n := waitSamples(t, r, 60)
	if n != 60 || len(seen) != 60 {
		t.Errorf("%d samples taken, %d different; want 60, each once (status %+v)", n, len(seen), s.Status())
	}
}

// TestClockSetBackPastANewStoresCursor: a store added while the clock is
// a year ahead (its cursor starts at that present less the backfill: it
// gets the readings stamped ahead), then the clock set right. The
// readings recorded since reach it, and none twice.
func TestClockSetBackPastANewStoresCursor(t *testing.T) {
	st, r, truth, clock, now := yearAhead(t)
	record(t, st, minutes(truth.Add(-40*time.Minute).Truncate(time.Minute), 5)...) // before the jump
	ahead := time.Unix(0, clock.Load()).Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(ahead, 5)...)
	o := Options{Config: Config{URL: r.srv.URL, Backfill: time.Hour, Interval: time.Second, MaxBackoff: time.Second}, CommitInterval: time.Second, Hostname: "hub", Now: now}
	s, stop := runWith(t, st, o)
	defer stop()
	testutil.WaitFor(t, "the readings stamped ahead sent", func() bool { return s.Status().Sent == 10 })
	clock.Store(truth.UnixNano())
	since := truth.Add(-10 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(since, 5)...)
	s.Poke()
	seen, n := waitSamples(t, r, 30)
	missing := 0
	for _, rd := range minutes(since, 5) {
		found := false
		for k := range seen {
			if len(k) > 20 && k[len(k)-20:] == rd.Time.UTC().Format(time.RFC3339) {
				found = true
			}
		}
		if !found {
			missing++
		}
	}
	if n != len(seen) || missing > 0 {
		t.Errorf("%d samples taken, %d different, %d readings recorded since missing (status %+v)", n, len(seen), missing, s.Status())
	}
	time.Sleep(2 * time.Second)
	if _, n2 := r.samples(t); n2 != n {
		t.Errorf("%d samples then %d: sent again", n, n2)
	}
}
