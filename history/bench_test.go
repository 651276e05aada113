package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// demoReadings returns n readings of the demo house, minute by minute.
func demoReadings(n int) []sensors.Reading {
	h := demo.New(&demo.Options{Seed: 1, Location: time.UTC})
	var rs []sensors.Reading
	for t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); len(rs) < n; t = t.Add(time.Minute) {
		rs = append(rs, h.At(t)...)
	}
	return rs[:n]
}

// BenchmarkWriterBatch writes batches of 1,000 readings in one transaction
// each, as the writer goroutine does, into a real database file.
func BenchmarkWriterBatch(b *testing.B) {
	s := openTest(b, filepath.Join(b.TempDir(), "h.db"), nil)
	rs := demoReadings(1000)
	shift := 0
	for b.Loop() {
		// Fresh times each batch, so every op inserts rather than updates.
		batch := make([]sensors.Reading, len(rs))
		for i, r := range rs {
			r.Time = r.Time.Add(time.Duration(shift) * 24 * time.Hour)
			batch[i] = r
		}
		shift++
		if err := s.w.write(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(rs))/b.Elapsed().Seconds(), "readings/s")
}

// BenchmarkSnapshotRebuild shapes the structure of the demo house with a
// day of history, as happens once per new reading.
func BenchmarkSnapshotRebuild(b *testing.B) {
	end := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	s := openTest(b, filepath.Join(b.TempDir(), "h.db"), &Options{Now: fixedClock(end), Location: time.UTC})
	h := demo.New(&demo.Options{Seed: 1, Location: time.UTC})
	if err := h.Backfill(context.Background(), s, end.Add(-24*time.Hour), end); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s.live.gen.Add(1)
		s.Snapshot()
	}
}

// BenchmarkSnapshotCached is the cost of get_climate's data when nothing
// changed: a pointer load and two comparisons.
func BenchmarkSnapshotCached(b *testing.B) {
	s := openTest(b, filepath.Join(b.TempDir(), "h.db"), &Options{Now: fixedClock(time.Unix(1_800_000_000, 0))})
	s.Record(context.Background(), demoReadings(100))
	for b.Loop() {
		s.Snapshot()
	}
}
