package climate

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// liveSink records into a Live, as the hub does.
type liveSink struct{ l *Live }

func (s liveSink) Record(_ context.Context, b sensors.Batch) error { s.l.Add(b.Readings); return nil }
func (liveSink) Flush(context.Context) error                       { return nil }
func (liveSink) Report(sensors.Status)                             {}

// BenchmarkSnapshotRebuild shapes the structure of the demo house with a
// day of history, as happens once per new reading.
func BenchmarkSnapshotRebuild(b *testing.B) {
	end := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	l := New(&Options{Now: func() time.Time { return end }, Location: time.UTC})
	h := demo.New(&demo.Options{Seed: 1, Location: time.UTC})
	if err := h.Backfill(context.Background(), liveSink{l}, end.Add(-24*time.Hour), end); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		l.gen.Add(1) // as a new reading does
		l.Snapshot()
	}
}

// BenchmarkSnapshotCached is the cost of get_climate's data when nothing
// changed: a pointer load and two comparisons.
func BenchmarkSnapshotCached(b *testing.B) {
	l := New(&Options{Now: func() time.Time { return time.Unix(1_800_000_000, 0) }})
	h := demo.New(&demo.Options{Seed: 1, Location: time.UTC})
	l.Add(h.At(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	for b.Loop() {
		l.Snapshot()
	}
}
