package history

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// BenchmarkHouseWrites is scripts/sdwrites.sh's house in accelerated
// time: 20 zones x 4 measurements, a reading a minute each, one commit a
// minute (commit_interval's default), the move into raw and the rollups
// when it falls due. Every op is six hours of the house, after six hours
// of warm-up, so that each op holds one move. Between minutes the files
// are written back (fdatasync), as the kernel does within its 30 s when
// commits are a minute apart: a page dirtied again after that counts
// again, as it does on a hub. It reports the bytes written to storage per
// reading, all in, those of the moves alone, and those of keeping the
// days the moves completed (a row a zone a day).
func BenchmarkHouseWrites(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "h.db")
	t := time.Now().Add(-30 * 24 * time.Hour).Truncate(24 * time.Hour)
	s := openTest(b, path, &Options{FlushInterval: time.Hour, Now: func() time.Time { return t }})
	ctx := context.Background()
	ms := []sensors.Measurement{sensors.Temperature, sensors.Humidity, sensors.BatteryPercent, sensors.RFStatus}
	base := []float64{20, 50, 80, 70}
	var moved, kept int64
	minute := func() {
		var rs []sensors.Reading
		for z := range 20 {
			for i, m := range ms {
				v := base[i] + float64((t.Minute()*7+z+i)%40)/10
				rs = append(rs, sensors.Reading{Zone: fmt.Sprintf("Room %02d", z), Measurement: m, Value: v, Time: t.Add(time.Duration(z*3) * time.Second), Source: "bench"})
			}
		}
		if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
			b.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			b.Fatal(err)
		}
		writeBack(b, path)
		t = t.Add(time.Minute)
		if due, err := s.w.compactDue(ctx, t); err != nil || !due {
			return
		}
		w0 := writeBytes(b)
		if err := s.w.compact(ctx, t, true); err != nil {
			b.Fatal(err)
		}
		writeBack(b, path)
		moved += writeBytes(b) - w0
		// The days the move completed are kept, as the writer's keeper
		// does within seconds of the move.
		w0 = writeBytes(b)
		if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
			b.Fatal(err)
		}
		writeBack(b, path)
		kept += writeBytes(b) - w0
	}
	for range int(compactAge / time.Minute) {
		minute()
	}
	w0, readings := writeBytes(b), 0
	moved, kept = 0, 0
	for b.Loop() {
		for range int(compactAge / time.Minute) {
			minute()
			readings += 20 * len(ms)
		}
	}
	b.ReportMetric(float64(writeBytes(b)-w0)/float64(readings), "written-bytes/reading")
	b.ReportMetric(float64(moved)/float64(readings), "move-bytes/reading")
	b.ReportMetric(float64(kept)/float64(readings), "keep-bytes/reading")
}

// writeBack has the kernel write the database's files back now.
func writeBack(b *testing.B, path string) {
	b.Helper()
	for _, ext := range []string{"", "-wal", "-shm"} {
		f, err := os.OpenFile(path+ext, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		f.Sync()
		f.Close()
	}
}
