package history

import (
	"context"
	"io"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// stationMeasurements are what a weather station with an air-quality
// sensor and a soil probe reports, its battery and radio with them.
var stationMeasurements = []sensors.Measurement{
	sensors.Temperature, sensors.Humidity, sensors.Pressure, sensors.AbsolutePressure,
	sensors.WindStrength, sensors.WindAngle, sensors.GustStrength, sensors.GustAngle,
	sensors.Rain, sensors.RainRate, sensors.SolarRadiation, sensors.UV,
	sensors.PM25, sensors.PM10, sensors.SoilMoisture, sensors.LeafWetness,
	sensors.BatteryPercent, sensors.RFStatus,
}

// stationRows are the station's readings every 5 minutes over [t, end),
// a row an instant.
type stationRows struct {
	t, end time.Time
	line   int
	step   time.Duration
}

func (g *stationRows) Next(context.Context) (ImportRow, error) {
	if !g.t.Before(g.end) {
		return ImportRow{}, io.EOF
	}
	at := g.t
	g.t = g.t.Add(g.step)
	g.line++
	day := math.Sin(float64(at.Hour()) / 24 * 2 * math.Pi)
	var rs []sensors.Reading
	for _, m := range stationMeasurements {
		v := 50 + 10*day
		switch m {
		case sensors.Temperature:
			v = 10 + 5*day
		case sensors.Pressure, sensors.AbsolutePressure:
			v = 1013 + day
		case sensors.WindAngle, sensors.GustAngle:
			v = float64(g.line % 360)
		case sensors.Rain, sensors.RainRate, sensors.UV:
			v = 1
		case sensors.RFStatus:
			v = 70
		}
		rs = append(rs, sensors.Reading{Zone: "Garden", Measurement: m, Value: v, Time: at, Source: "station/test"})
	}
	return ImportRow{Line: g.line, Readings: rs}, nil
}

// importMonth is a month of a station's 18 measurements, a reading a
// minute, all still raw (the days a time-zone change or a source taking
// the zone's series makes the keeper summarise again), in a history
// whose keeper is off; it returns the store and the month's end.
func importMonth(tb testing.TB) (*Store, time.Time) {
	tb.Helper()
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	s := openTest(tb, filepath.Join(tb.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	s.w.days.paused.Store(true)
	if _, err := s.ImportRows(context.Background(), &stationRows{t: now.AddDate(0, 0, -29), end: now.Add(-2 * time.Hour), step: time.Minute}, ImportOptions{}); err != nil {
		tb.Fatal(err)
	}
	return s, now
}

// TestKeeperLetsWritesThrough: the keeper runs in the writer's goroutine,
// keepBudget (150 ms) a tick, so that a new or rebuilt history is kept
// over many ticks while the writer goes on writing. It looked at its
// deadline only after a whole run of 31 days, hundreds of queries a
// measurement: a tick lasted several times its budget, and every write
// (an MQTT acknowledgement waits for Flush) waited as long, 0.6-2.0 s
// (a month of a station, and a year of 20 zones). A run is now as many
// days as fit in what is left of the tick (keepPace), at least one: with
// nothing left after its first, a tick keeps one day, where it kept 31.
// The waits themselves are BenchmarkKeeperWriteWait's figures.
func TestKeeperLetsWritesThrough(t *testing.T) {
	if testing.Short() {
		t.Skip("imports a month of a station")
	}
	s, _ := importMonth(t)
	ctx := context.Background()
	for tick := 1; tick <= 3; tick++ {
		before := keptCount(t, s, "Garden")
		if _, err := s.keepDays(ctx, s.wdb, time.Nanosecond); err != nil {
			t.Fatal(err)
		}
		if n := keptCount(t, s, "Garden") - before; n != 1 {
			t.Errorf("tick %d with no budget left after its first run kept %d days, want 1", tick, n)
		}
	}
}

// TestKeepPaceFitsTheBudget: a run is as many days as the last run's
// time per day fits in what is left, at least one and at most keepChunk.
func TestKeepPaceFitsTheBudget(t *testing.T) {
	var p keepPace
	for _, c := range []struct {
		missing int
		left    time.Duration
		want    int
	}{{100, time.Second, 1}} { // nothing measured yet: one day
		if got := p.days(c.missing, c.left); got != c.want {
			t.Errorf("before any run: %d days, want %d", got, c.want)
		}
	}
	p.took(2, 60*time.Millisecond) // 30 ms a day
	for _, c := range []struct {
		missing int
		left    time.Duration
		want    int
	}{{100, 150 * time.Millisecond, 5}, {3, 150 * time.Millisecond, 3}, {100, 10 * time.Millisecond, 1}, {100, 10 * time.Second, keepChunk}} {
		if got := p.days(c.missing, c.left); got != c.want {
			t.Errorf("30 ms a day, %d missing, %s left: %d days, want %d", c.missing, c.left, got, c.want)
		}
	}
}

// BenchmarkKeeperWriteWait reports the longest a write (Record and
// Flush, a reading every 20 ms) waited while a started hub's keeper kept
// a month of a station's days, and what a day's summary took meanwhile
// (longest-write-ms, day-ms): the figure behind TestKeeperLetsWritesThrough.
func BenchmarkKeeperWriteWait(b *testing.B) {
	for range b.N {
		s, now := importMonth(b)
		path := s.path
		s.Close(context.Background())
		s = openTest(b, path, &Options{Now: testutil.FixedClock(now), Location: time.UTC})
		ctx := context.Background()
		var longest time.Duration
		deadline := time.Now().Add(time.Minute)
		for i := 1; keptCount(b, s, "Garden") < 29 && time.Now().Before(deadline); i++ {
			r := sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: 8, Time: now.Add(-time.Duration(i) * time.Second), Source: "station/test"}
			start := time.Now()
			if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
				b.Fatal(err)
			}
			if err := s.Flush(ctx); err != nil {
				b.Fatal(err)
			}
			longest = max(longest, time.Since(start))
			time.Sleep(20 * time.Millisecond)
		}
		b.ReportMetric(float64(longest.Milliseconds()), "longest-write-ms")
		b.ReportMetric(float64(time.Duration(s.keepPace.perDay.Load()).Milliseconds()), "day-ms")
	}
}
