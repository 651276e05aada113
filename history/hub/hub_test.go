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

func openTest(t testing.TB, path string, opts *history.Options) *Hub {
	t.Helper()
	h, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

func round(m sensors.Measurement, v float64) float64 { return m.Round(v, 0) }

// TestSnapshotRainWindows checks the rain keys at the edges of their windows
// through the whole path: Record, the recent window, Snapshot.
func TestSnapshotRainWindows(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &history.Options{Now: testutil.FixedClock(now)})
	rain := func(ago time.Duration, mm float64) sensors.Reading {
		return sensors.Reading{Zone: "Rain", Measurement: sensors.Rain, Value: mm, Time: now.Add(-ago), Source: "gauge"}
	}
	if err := s.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{
		rain(24*time.Hour, 100),
		rain(24*time.Hour-time.Second, 1),
		rain(time.Hour, 10),
		rain(time.Hour-time.Second, 0.2),
		rain(0, 0.4),
	}}); err != nil {
		t.Fatal(err)
	}
	z := s.Snapshot().Climate["Rain"]
	if z[sensors.KeySumRain1] != 0.6 || z[sensors.KeySumRain24] != 11.6 || z["Rain"] != 0.4 || z[sensors.KeyWhen] != now.Unix() {
		t.Errorf("Rain zone = %v; want sum_rain_1 0.6, sum_rain_24 11.6, Rain 0.4, When %d", z, now.Unix())
	}
}

// TestReadOnlyFollowsTheWriter: a read-only store beside a writing one sees
// what was there at open, then what the writer commits, and tells its
// listeners; it never writes.
func TestReadOnlyFollowsTheWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	ctx := context.Background()
	now := time.Now().Truncate(time.Second)
	w := openTest(t, path, nil)
	if err := w.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 20, Time: now.Add(-time.Minute), Source: "t"}}}); err != nil {
		t.Fatal(err)
	}
	w.Flush(ctx)

	r, err := OpenReadOnly(ctx, path, nil, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	if got := r.Snapshot().Climate["Indoor"]["Temperature"]; got != 20.0 {
		t.Fatalf("at open: Temperature = %v", got)
	}
	var mu sync.Mutex
	var told []string
	r.OnUpdate(func(zones []string, added bool) {
		mu.Lock()
		told = append(told, zones...)
		mu.Unlock()
	})

	w.Record(ctx, sensors.Batch{Readings: []sensors.Reading{
		{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: now, Source: "t"},
		{Zone: "Attic", Measurement: sensors.Humidity, Value: 55, Time: now, Source: "t"},
	}})

	w.Flush(ctx)
	if !testutil.Eventually(func() bool {
		return r.Snapshot().Climate["Attic"] != nil && r.Snapshot().Climate["Indoor"]["Temperature"] == 21.0
	}) {
		t.Fatalf("read-only store did not follow: %v", r.Snapshot().Climate)
	}
	mu.Lock()
	if !slices.Contains(told, "Attic") || !slices.Contains(told, "Indoor") {
		t.Errorf("listeners told %v", told)
	}
	mu.Unlock()
	if _, err := r.Range(ctx, history.Query{Zone: "Indoor", Measurement: sensors.Temperature, From: now.Add(-time.Hour), To: now.Add(time.Second)}); err != nil {
		t.Errorf("range on read-only: %v", err)
	}
	if err := r.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "X", Measurement: sensors.Temperature, Value: 1, Time: now}}}); !errors.Is(err, history.ErrReadOnly) {
		t.Errorf("Record on read-only = %v", err)
	}
}
