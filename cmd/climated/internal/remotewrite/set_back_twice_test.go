package remotewrite

import (
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestClockSetBackTwiceSendsEachReadingOnce: the clock jumps a year
// ahead and is set right (the sender goes back, the way over the
// readings sent ahead kept); then, before it reaches them, it jumps a
// month ahead (a bad NTP server again) and is set right once more. The
// readings recorded once it is right the second time must reach the
// store, as those of the first time did: the cursor, left a month
// ahead, is behind the clock's present again.
func TestClockSetBackTwiceSendsEachReadingOnce(t *testing.T) {
	st, r, truth, clock, now := yearAhead(t)
	o := Options{Config: Config{URL: r.srv.URL, Backfill: time.Hour, Interval: time.Second, MaxBackoff: time.Second}, CommitInterval: time.Second, Hostname: "hub", Now: now}
	s, stop := runWith(t, st, o)
	defer stop()
	aheadThenRight(t, st, s, clock, truth, 10*time.Minute)
	testutil.WaitFor(t, "the readings recorded once the clock is right sent", func() bool {
		st := s.Status()
		return st.Sent == 20 && st.State == StateSetBack
	})

	// A month ahead, readings sent.
	month := truth.AddDate(0, 1, 0)
	clock.Store(month.UnixNano())
	record(t, st, minutes(month.Add(-30*time.Minute).Truncate(time.Minute), 5)...)
	s.Poke()
	testutil.WaitFor(t, "the readings stamped a month ahead sent", func() bool { return s.Status().Sent == 30 })

	// Set right again: an hour after the truth.
	clock.Store(truth.Add(time.Hour).UnixNano())
	record(t, st, minutes(truth.Add(30*time.Minute).Truncate(time.Minute), 5)...)
	s.Poke()
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		if _, n := r.samples(t); n >= 40 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	seen, n := r.samples(t)
	if n != 40 || len(seen) != 40 {
		t.Errorf("%d samples taken, %d different; want 40, each once: the 10 recorded once the clock was right the second time are not sent (status %+v)", n, len(seen), s.Status())
	}
}
