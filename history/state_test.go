package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestSourceStateWithItsReadings: a state is committed with its call's
// readings, a key's later state replaces the earlier, and it is read
// back after the store is closed and opened again, as after a restart.
func TestSourceStateWithItsReadings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.SourceState(ctx, "station k tipping"); ok || err != nil {
		t.Fatalf("a new history has a state: %v %v", ok, err)
	}
	now := time.Now().Truncate(time.Second)
	for i, v := range []string{`{"mm":800.4}`, `{"mm":800.9}`} {
		r := sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.5, Time: now.Add(time.Duration(i) * time.Minute), Source: "test"}
		if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{r}, States: []sensors.State{{Key: "station k tipping", Value: v}}}); err != nil {
			t.Fatal(err)
		}
	}
	// A call whose readings are all refused writes no state.
	s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "Garden", Measurement: sensors.Rain, Value: -1, Time: now, Source: "test"}},
		States: []sensors.State{{Key: "station k tipping", Value: `{"mm":0}`}}})
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if v, ok, err := s.SourceState(ctx, "station k tipping"); !ok || err != nil || v != `{"mm":800.9}` {
		t.Errorf("state after a restart: %q %v %v, want the later one", v, ok, err)
	}
}
