package history

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestReadOnlyFollowsTheWriter: a read-only store beside a writing one sees
// what was there at open, then what the writer commits, and tells its
// listeners; it never writes.
func TestReadOnlyFollowsTheWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	ctx := context.Background()
	now := time.Now().Truncate(time.Second)
	w := openTest(t, path, nil)
	if err := w.Record(ctx, []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 20, Time: now.Add(-time.Minute), Source: "t"}}); err != nil {
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

	w.Record(ctx, []sensors.Reading{
		{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: now, Source: "t"},
		{Zone: "Attic", Measurement: sensors.Humidity, Value: 55, Time: now, Source: "t"},
	})
	w.Flush(ctx)
	deadline := time.Now().Add(10 * time.Second)
	for r.Snapshot().Climate["Attic"] == nil || r.Snapshot().Climate["Indoor"]["Temperature"] != 21.0 {
		if time.Now().After(deadline) {
			t.Fatalf("read-only store did not follow: %v", r.Snapshot().Climate)
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	if !slices.Contains(told, "Attic") || !slices.Contains(told, "Indoor") {
		t.Errorf("listeners told %v", told)
	}
	mu.Unlock()
	if _, err := r.Range(ctx, Query{Zone: "Indoor", Measurement: sensors.Temperature, From: now.Add(-time.Hour), To: now.Add(time.Second)}); err != nil {
		t.Errorf("range on read-only: %v", err)
	}
	if err := r.Record(ctx, []sensors.Reading{{Zone: "X", Measurement: sensors.Temperature, Value: 1, Time: now}}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Record on read-only = %v", err)
	}
}

func TestReadOnlyWithoutDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	_, err := OpenReadOnly(context.Background(), path, nil, 0)
	if err == nil || !strings.Contains(err.Error(), "start climated serve first") {
		t.Errorf("err = %v", err)
	}
}
