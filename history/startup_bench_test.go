package history

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// startupSeries is how many series BenchmarkOpen2000Series rebuilds: a
// large house (200 zones of 10 measurements).
const startupSeries = 2000

// fillSeries writes n series of an hour of minute readings each into the
// database at path and closes it.
func fillSeries(tb testing.TB, path string, n int, end time.Time) {
	ms := []sensors.Measurement{sensors.Temperature, sensors.Humidity, sensors.CO2, sensors.Noise, sensors.Pressure,
		sensors.AbsolutePressure, sensors.Rain, sensors.BatteryVoltage, sensors.BatteryPercent, sensors.RFStatus}
	s := openTest(tb, path, nil)
	ctx := context.Background()
	for i := range n {
		zone, m := fmt.Sprintf("Zone %d", i/len(ms)), ms[i%len(ms)]
		info, _ := sensors.Lookup(m)
		if err := s.Record(ctx, sensors.Batch{Readings: every(zone, m, end.Add(-time.Hour), 60, time.Minute, func(j int) float64 { return info.Min + float64(j%10) })}); err != nil {
			tb.Fatal(err)
		}
	}
	if err := s.Close(ctx); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkOpen2000Series is the start-up of a store with 2,000 series:
// open, migrate, read back each series' recent window, start the writer.
func BenchmarkOpen2000Series(b *testing.B) {
	path := filepath.Join(b.TempDir(), "h.db")
	fillSeries(b, path, startupSeries, time.Now().Truncate(time.Minute))
	ctx := context.Background()
	for b.Loop() {
		s, err := Open(ctx, path, nil)
		if err != nil {
			b.Fatal(err)
		}
		s.Close(ctx)
	}
}
