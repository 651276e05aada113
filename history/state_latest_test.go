package history

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestLatestStateWhileTheDiskIsFull: while the disk is full the writer
// holds the batches it cannot write, and LatestState answers a key's
// newest state among them (the one still on its way to the writer
// included), where SourceState answers the older committed one; a key
// with nothing waiting is answered from the history, and once space is
// back the two agree.
func TestLatestStateWhileTheDiskIsFull(t *testing.T) {
	path, filler, past := recordedThenFull(t, "4m")
	ctx := context.Background()
	s, err := Open(ctx, path, &Options{FlushInterval: DefaultMaxRetryInterval})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	const key = "station k tipping"
	now := past[len(past)-1].Time
	record := func(i int, state string) {
		r := sensors.Reading{Zone: "Garden", Measurement: sensors.Rain, Value: 0.5, Time: now.Add(time.Duration(i) * time.Minute), Source: "test"}
		if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{r}, States: []sensors.State{{Key: key, Value: state}}}); err != nil {
			t.Fatal(err)
		}
	}
	record(1, "one")
	if err := s.Flush(ctx); !errors.Is(err, sensors.ErrDiskFull) {
		t.Fatalf("Flush on the full disk: %v", err)
	}
	record(2, "two")
	if v, ok, err := s.LatestState(ctx, key); v != "two" || !ok || err != nil {
		t.Errorf("LatestState on the full disk: %q %v %v, want two", v, ok, err)
	}
	if _, ok, err := s.SourceState(ctx, key); ok || err != nil {
		t.Errorf("SourceState on the full disk: %v %v, want none committed", ok, err)
	}
	if _, ok, err := s.LatestState(ctx, "another"); ok || err != nil {
		t.Errorf("LatestState of a key with nothing waiting: %v %v", ok, err)
	}
	os.Remove(filler)
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for _, read := range []func(context.Context, string) (string, bool, error){s.LatestState, s.SourceState} {
		if v, ok, err := read(ctx, key); v != "two" || !ok || err != nil {
			t.Errorf("once space is back: %q %v %v, want two", v, ok, err)
		}
	}
}
