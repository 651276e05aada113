package history

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// writeBytes is what the kernel counts as this process's writes to storage
// (/proc/self/io write_bytes): what an SD card would see.
func writeBytes(tb testing.TB) int64 {
	tb.Helper()
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "write_bytes: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	tb.Fatal("no write_bytes in /proc/self/io")
	return 0
}

// BenchmarkSteadyWrites runs the demo house in accelerated time: every op
// is one minute of the house (its readings recorded and committed, as the
// writer commits them in a real minute), and reports the bytes written to
// storage per reading, WAL and checkpoints included.
func BenchmarkSteadyWrites(b *testing.B) {
	dir := b.TempDir()
	start := time.Now().Add(-48 * time.Hour).Truncate(time.Minute)
	t := start
	s := openTest(b, filepath.Join(dir, "h.db"), &Options{FlushInterval: time.Hour, Now: func() time.Time { return t }})
	h := demo.New(&demo.Options{Seed: 1})
	ctx := context.Background()
	// Warm up a day, so the tables and the WAL are at their steady size.
	minute := func() {
		s.Record(ctx, sensors.Batch{Readings: h.At(t)})
		s.Flush(ctx)
		t = t.Add(time.Minute)
		if t.Minute() == 0 { // the writer compacts once an hour
			if err := s.w.compact(ctx, t, true); err != nil {
				b.Fatal(err)
			}
		}
	}
	for i := 0; i < 1440; i++ {
		minute()
	}
	w0 := writeBytes(b)
	readings := 0
	b.ResetTimer()
	for b.Loop() {
		readings += len(h.At(t))
		minute()
	}
	b.StopTimer()
	// Count the checkpoint that the close makes, too.
	s.Close(ctx)
	b.ReportMetric(float64(writeBytes(b)-w0)/float64(readings), "written-bytes/reading")
}
