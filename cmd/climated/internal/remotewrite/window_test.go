package remotewrite

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
)

// lateHistory is a real history that commits readings, once, right after
// the sender found its window empty: a backlog stamped within the
// window, committed between the sender's two looks.
type lateHistory struct {
	*history.Store
	once sync.Once
	late func()
}

func (h *lateHistory) ReadingsAfter(ctx context.Context, from history.Position, to int64, limit int) ([]history.Stored, error) {
	rs, err := h.Store.ReadingsAfter(ctx, from, to, limit)
	if len(rs) == 0 && err == nil {
		h.once.Do(h.late)
	}
	return rs, err
}

// TestWindowReadAgainAfterLateCommit: readings committed within the
// window the sender just found empty (a backlog that arrived then) are
// all sent: the sender looks for the next reading from its cursor, not
// from the end of the window, so none in the window is passed over.
func TestWindowReadAgainAfterLateCommit(t *testing.T) {
	st := openHistory(t)
	now := time.Now()
	base := now.Add(-3 * time.Hour).Truncate(time.Minute)
	// A reading later than the backlog, so that the window the sender
	// reads first (from its start, 4 hours back, for an hour) is empty.
	record(t, st, minutes(now.Add(-10*time.Minute).Truncate(time.Minute), 1)...)
	h := &lateHistory{Store: st}
	r := newReceiver(t)
	h.late = func() { record(t, st, minutes(base, 5)...) }
	s, stop := runWith(t, h, Options{Config: Config{URL: r.srv.URL, Backfill: 4*time.Hour - 2*time.Minute, Interval: time.Second, MaxBackoff: time.Second},
		CommitInterval: time.Second, Hostname: "hub", Now: func() time.Time { return now }})
	defer stop()
	testutil.WaitFor(t, "up to date", func() bool { return s.Status().State == StateUpToDate })
	seen, n := r.samples(t)
	if n != 12 || len(seen) != 12 {
		t.Errorf("%d samples taken, %d different; want the 10 of the backlog and the 2 after, once each", n, len(seen))
	}
}
