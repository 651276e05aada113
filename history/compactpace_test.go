package history

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors"
)

// TestCompactPace: the step size starts at compactStartRows, doubles after
// full steps well under the budget up to compactRows, shrinks in
// proportion after a slow step down to compactMinRows, and is not grown by
// a step that found fewer rows than it could have moved.
func TestCompactPace(t *testing.T) {
	var p compactPace
	steps := []struct {
		n    int
		d    time.Duration
		want int
	}{
		{compactStartRows, 10 * time.Millisecond, 2_000},
		{2_000, 20 * time.Millisecond, 4_000},
		{4_000, 40 * time.Millisecond, 8_000},
		{8_000, 40 * time.Millisecond, 16_000},
		{16_000, 40 * time.Millisecond, 32_000},
		{32_000, 40 * time.Millisecond, compactRows},
		{compactRows, 90 * time.Millisecond, compactRows}, // the most
		{compactRows, 2 * time.Second, 5_000},             // 50,000 rows under the race detector
		{5_000, 150 * time.Millisecond, 5_000},            // within the budget: kept
		{300, time.Millisecond, 5_000},                    // a short step says nothing of a full one
		{5_000, 20 * time.Second, compactMinRows},         // a stalled disk
		{compactMinRows, time.Second, compactMinRows},
	}
	if got := p.next(); got != compactStartRows {
		t.Fatalf("first step %d rows, want %d", got, compactStartRows)
	}
	for i, s := range steps {
		p.took(s.n, s.d)
		if got := p.next(); got != s.want {
			t.Fatalf("step %d (%d rows in %v): next %d rows, want %d", i, s.n, s.d, got, s.want)
		}
	}
}

// TestCompactStepFollowsThePace: the writer's steps move what the pace
// allows. In the bubble a step takes no time, so from 300 rows it doubles
// each tick: 300, 600, 1,200, then the rest of the 2,400.
func TestCompactStepFollowsThePace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := openBubble(t)
		defer s.Close(context.Background())
		setPace(s, 300) // before the first Record, as fullPace
		rs := every("Attic", sensors.Temperature, time.Now().Add(-48*time.Hour).Truncate(time.Hour), 2_400, time.Minute, func(j int) float64 { return 10 + float64(j%50)/10 })
		recordAll(t, s, rs)
		left := backlog(t, s, time.Now())
		for i, want := range []int{300, 600, 1_200, 300} {
			tick(t, s)
			now := backlog(t, s, time.Now())
			if left-now != want {
				t.Fatalf("tick %d moved %d readings, want %d", i+1, left-now, want)
			}
			left = now
		}
		if left != 0 {
			t.Fatalf("%d readings still wait", left)
		}
		checkTiers(t, s, rs)
	})
}

// TestFlushWritesInBatches: a flush writes whole Record calls in
// transactions of at most BatchSize readings; a call larger than that is
// one transaction of its own, never split (its mark must commit with all
// of its readings).
func TestFlushWritesInBatches(t *testing.T) {
	var mu sync.Mutex
	var sizes []int
	opts := &Options{Location: time.UTC, BatchSize: 100, OnFlush: func(_ time.Duration, n int, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.Errorf("flush: %v", err)
		}
		sizes = append(sizes, n)
	}}
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	ctx := context.Background()
	rs := every("Attic", sensors.Temperature, time.Now().Add(-2*time.Hour), 1_050, time.Second, func(j int) float64 { return 10 + float64(j%50)/10 })
	// 40 calls of 10 readings, one of 250, 40 more of 10.
	for i := 0; i < len(rs); {
		n := 10
		if i == 400 {
			n = 250
		}
		if err := s.Record(ctx, sensors.Batch{Readings: rs[i : i+n]}); err != nil {
			t.Fatal(err)
		}
		i += n
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	total, large := 0, 0
	for _, n := range sizes {
		switch {
		case n == 250:
			large++
		case n > opts.BatchSize || n%10 != 0:
			t.Errorf("a transaction wrote %d readings, want whole calls of 10 up to %d: %v", n, opts.BatchSize, sizes)
		}
		total += n
	}
	if total != len(rs) || large != 1 || len(sizes) < 9 {
		t.Errorf("flushes %v: %d readings in %d transactions, the call of 250 alone in %d; want %d in at least 9, and 1", sizes, total, len(sizes), large, len(rs))
	}
	got, err := s.Range(ctx, Query{Zone: "Attic", Measurement: sensors.Temperature, From: rs[0].Time, To: rs[len(rs)-1].Time.Add(time.Second)})
	if err != nil || got.Summary == nil || got.Summary.Count != len(rs) {
		t.Fatalf("read back: %v %s", err, fmt.Sprint(got.Summary))
	}
}
