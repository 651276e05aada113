package history

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// yearBacklog is a year of 5-minute readings of three zones' temperature,
// humidity, pressure and CO2 (12 series, 1,261,440 readings) up to end.
func yearBacklog(end time.Time) []sensors.Reading {
	const n = 365 * 24 * 12
	from := end.AddDate(-1, 0, 0)
	var rs []sensors.Reading
	for z, zone := range []string{"Living", "Bedroom", "Balcony"} {
		wave := func(i int, mid, amp float64) float64 {
			return mid + amp*math.Sin(float64(i+z*100)/288*2*math.Pi)
		}
		rs = append(rs, every(zone, sensors.Temperature, from, n, 5*time.Minute, func(i int) float64 { return math.Round(wave(i, 18, 6)*10) / 10 })...)
		rs = append(rs, every(zone, sensors.Humidity, from, n, 5*time.Minute, func(i int) float64 { return math.Round(wave(i, 50, 20)) })...)
		rs = append(rs, every(zone, sensors.Pressure, from, n, 5*time.Minute, func(i int) float64 { return math.Round(wave(i, 1010, 15)*10) / 10 })...)
		rs = append(rs, every(zone, sensors.CO2, from, n, 5*time.Minute, func(i int) float64 { return math.Round(wave(i, 800, 300)) })...)
	}
	return rs
}

// yearQuery is the dashboard's 1-year chart of one series (a chart a
// thousand pixels wide), timed.
func yearQuery(b *testing.B, s *Store, end time.Time) time.Duration {
	b.Helper()
	t0 := time.Now()
	res, err := s.Range(context.Background(), Query{Zone: "Balcony", Measurement: sensors.Temperature, From: end.AddDate(-1, 0, 0), To: end, MaxPoints: 1000})
	if err != nil || len(res.Points) == 0 {
		b.Fatalf("1-year query: %v, %d points", err, len(res.Points))
	}
	return time.Since(t0)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkYearBacklog is a year of 5-minute readings of 12 series arriving
// at once through Record (a hub that was off, a device's buffer, the demo's
// backfill): how slow the dashboard's 1-year chart is right after, how
// many writer ticks compaction takes to catch up (the ticks are driven
// here, one compact call each, as the writer's loop makes them every
// FlushInterval), how long the longest tick held the writer, and the
// chart after 60 and 150 ticks (a minute and two and a half at the
// default FlushInterval) and once caught up. Run it with -benchtime=1x -count=3.
func BenchmarkYearBacklog(b *testing.B) {
	end := time.Date(2026, 12, 1, 0, 30, 0, 0, time.UTC)
	rs := yearBacklog(end)
	for range b.N {
		// The writer's own ticks would compact too: only ours run.
		s := openTest(b, filepath.Join(b.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(end), Location: time.UTC, FlushInterval: 24 * time.Hour})
		ctx := context.Background()
		for c := range slices.Chunk(rs, DefaultBatchSize) {
			if err := s.Record(ctx, sensors.Batch{Readings: c}); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Flush(ctx); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(ms(yearQuery(b, s, end)), "query-ms-after-backfill")
		var took []time.Duration
		ticks := 0
		for ; waiting(b, s, end); ticks++ {
			switch ticks {
			case 60:
				b.ReportMetric(ms(yearQuery(b, s, end)), "query-ms-after-60-ticks")
			case 150:
				b.ReportMetric(ms(yearQuery(b, s, end)), "query-ms-after-150-ticks")
			}
			t0 := time.Now()
			if err := s.w.compact(ctx, end, false); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(t0))
		}
		slices.Sort(took)
		b.ReportMetric(float64(ticks), "ticks-to-catch-up")
		b.ReportMetric(ms(took[len(took)/2]), "median-tick-ms")
		b.ReportMetric(ms(took[len(took)-1]), "longest-tick-ms")
		caughtUp := ms(yearQuery(b, s, end))
		b.ReportMetric(caughtUp, "query-ms-caught-up")
		if ticks <= 150 {
			b.ReportMetric(caughtUp, "query-ms-after-150-ticks")
		}
	}
}

// waiting says whether readings of recent wait for compaction.
func waiting(tb testing.TB, s *Store, now time.Time) bool {
	tb.Helper()
	var ok bool
	if err := s.rdb.QueryRow("SELECT EXISTS (SELECT 1 FROM recent WHERE t < ?)", now.Truncate(time.Hour).Unix()).Scan(&ok); err != nil {
		tb.Fatal(err)
	}
	return ok
}

// backlog is how many readings of recent wait for compaction.
func backlog(tb testing.TB, s *Store, now time.Time) int {
	tb.Helper()
	var n int
	if err := s.rdb.QueryRow("SELECT count(*) FROM recent WHERE t < ?", now.Truncate(time.Hour).Unix()).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// BenchmarkYearImport is the same year through `climated import`'s path
// (Store.Import of export's CSV), and the dashboard's 1-year chart right
// after. Run it with -benchtime=1x -count=3.
func BenchmarkYearImport(b *testing.B) {
	end := time.Date(2026, 12, 1, 0, 30, 0, 0, time.UTC)
	var csv bytes.Buffer
	fmt.Fprintln(&csv, "time,zone,measurement,value,source")
	for _, r := range yearBacklog(end) {
		fmt.Fprintf(&csv, "%s,%s,%s,%g,bench\n", r.Time.Format(time.RFC3339), r.Zone, r.Measurement, r.Value)
	}
	for range b.N {
		s := openTest(b, filepath.Join(b.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(end), Location: time.UTC, FlushInterval: 24 * time.Hour})
		t0 := time.Now()
		if _, err := s.Import(context.Background(), bytes.NewReader(csv.Bytes()), ImportOptions{}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(t0).Seconds(), "import-s")
		b.ReportMetric(float64(backlog(b, s, end)), "backlog-after-import")
		b.ReportMetric(ms(yearQuery(b, s, end)), "query-ms-after-import")
	}
}
