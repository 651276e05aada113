package hub

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestCloseStopsPartsInReverseThenTheStore: Close stops the parts the last
// started first, waits for each, and closes the store after them all, so
// that a request still draining when shutdown begins (a late get_history)
// reads an open database.
func TestCloseStopsPartsInReverseThenTheStore(t *testing.T) {
	ctx := context.Background()
	now := time.Now().Truncate(time.Second)
	h := openTest(t, filepath.Join(t.TempDir(), "h.db"), nil)
	if err := h.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 20, Time: now, Source: "t"}}}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	stopped := func(name string) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, name)
	}
	h.Start("sources", func(ctx context.Context) error { <-ctx.Done(); stopped("sources"); return nil })
	var lateErr error
	h.Start("http", func(ctx context.Context) error {
		<-ctx.Done()
		time.Sleep(50 * time.Millisecond) // a request still draining
		_, lateErr = h.Range(context.Background(), history.Query{Zone: "Indoor", Measurement: sensors.Temperature, From: now.Add(-time.Hour), To: now.Add(time.Second)})
		stopped("http")
		return nil
	})
	h.Start("watchdog", func(ctx context.Context) error { <-ctx.Done(); stopped("watchdog"); return ctx.Err() })
	if err := h.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if lateErr != nil {
		t.Errorf("get_history during shutdown: %v", lateErr)
	}
	if want := []string{"watchdog", "http", "sources"}; !slices.Equal(order, want) {
		t.Errorf("stopped in order %v, want %v", order, want)
	}
	if _, err := h.Range(ctx, history.Query{Zone: "Indoor", Measurement: sensors.Temperature, From: now.Add(-time.Hour), To: now}); err == nil {
		t.Error("the store still answers after Close")
	}
	if err := <-h.Start("late", func(context.Context) error { return nil }); err == nil {
		t.Error("a part started after Close ran")
	}
}

// TestStartReportsTheResult: what a part returns on its own arrives on the
// channel Start gave, and a part ended by Close reports nil.
func TestStartReportsTheResult(t *testing.T) {
	h := openTest(t, filepath.Join(t.TempDir(), "h.db"), nil)
	boom := errors.New("listener closed")
	if err := <-h.Start("failing", func(context.Context) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("failing part reported %v", err)
	}
	done := h.Start("stopped", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	h.Close(context.Background())
	if err := <-done; err != nil {
		t.Errorf("a part stopped by Close reported %v", err)
	}
}

// TestLiveAnswersBeforeTheDisk: a reading is in the structure as soon as
// Record returns, long before the writer flushes it (and whether the disk
// takes it or not).
func TestLiveAnswersBeforeTheDisk(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	h := openTest(t, filepath.Join(t.TempDir(), "h.db"), &history.Options{Now: testutil.FixedClock(now), FlushInterval: time.Hour, BatchSize: 1 << 20})
	if err := h.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21.04, Time: now, Source: "t"}}}); err != nil {
		t.Fatal(err)
	}
	if got := h.Snapshot().Climate["Indoor"]["Temperature"]; got != 21.0 {
		t.Errorf("Temperature = %v before any flush, want 21 from memory", got)
	}
	if n := h.store.Opened(); n != nil {
		t.Errorf("Opened after Open gave %v, want nil (taken by the hub)", n)
	}
}
