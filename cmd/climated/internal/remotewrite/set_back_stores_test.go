package remotewrite

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestSetBackOfOneStoreLeavesAnotherAndSurvivesItsRemoval: two stores.
// The first saw readings stamped a year ahead, and the clock set right;
// it is then taken out of the configuration for two hours of readings
// and put back. The second is added while the clock is right. Each gets
// every reading recorded while it was configured or since its cursor
// once, the first none stamped ahead again; the second's cursor has no
// way over of the first's; climated doctor (ReadKept, read-only) reads
// each store's own state while both send.
func TestSetBackOfOneStoreLeavesAnotherAndSurvivesItsRemoval(t *testing.T) {
	st, r, truth, clock, now := yearAhead(t)
	opts := func(url string) Options {
		return Options{Config: Config{URL: url, Backfill: time.Hour, Interval: time.Second, MaxBackoff: time.Second}, CommitInterval: time.Second, Hostname: "hub", Now: now}
	}
	s, stop := runWith(t, st, opts(r.srv.URL))
	ahead, right := aheadThenRight(t, st, s, clock, truth, 10*time.Minute)
	testutil.WaitFor(t, "the first store set back", func() bool { st := s.Status(); return st.Sent == 20 && st.State == StateSetBack })
	stop() // taken out of the configuration
	clock.Store(truth.Add(2*time.Hour + 30*time.Minute).UnixNano())

	r2 := newReceiver(t)
	s2, stop2 := runWith(t, st, opts(r2.srv.URL))
	defer stop2()
	record(t, st, minutes(right.Add(5*time.Minute), 120)...)
	s2.Poke()
	testutil.WaitFor(t, "the second store sent the last hour", func() bool { return s2.Status().State == StateUpToDate })
	if got := s2.Status(); !got.SentAhead.IsZero() {
		t.Errorf("the second store: %+v; it never saw the readings sent ahead", got)
	}
	k2, err := ReadKept(context.Background(), st.Path(), r2.srv.URL)
	if err != nil || k2.SentAhead.T != 0 {
		t.Errorf("the second store kept: %+v, %v", k2, err)
	}

	// Put back: it sends the two hours once, nothing ahead again.
	s, stop = runWith(t, st, opts(r.srv.URL))
	defer stop()
	testutil.WaitFor(t, "the first store caught up", func() bool { st := s.Status(); return st.Sent >= 260 && st.State == StateSetBack })
	k1, err := ReadKept(context.Background(), st.Path(), r.srv.URL)
	if err != nil || k1.SentAhead.T != ahead.Add(4*time.Minute).Unix() {
		t.Errorf("the first store kept: %+v, %v", k1, err)
	}
	seen, n := r.samples(t)
	if n != 260 || len(seen) != 260 {
		t.Errorf("first store: %d samples, %d different; want 260 once each", n, len(seen))
	}
	seen2, n2 := r2.samples(t)
	if n2 != len(seen2) {
		t.Errorf("second store: %d samples, %d different: some twice", n2, len(seen2))
	}
	for k := range seen2 {
		if seen[k] == 0 {
			t.Errorf("the second store has %s, the first not", k)
			break
		}
	}
}
