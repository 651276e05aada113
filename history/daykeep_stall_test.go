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

// TestKeeperLetsWritesThrough: the keeper runs in the writer's goroutine,
// keepBudget (150 ms) a tick, "so that a new or rebuilt history is kept
// over a few dozen ticks while the writer goes on writing"
// (daykeep_fill.go). Tried: a month of a station's 18 measurements, a
// reading a minute (all still raw: the days a time-zone change or a
// source taking the zone's series makes the keeper summarise again),
// then the hub started and a reading recorded and flushed every 20 ms
// while the keeper keeps the days; the longest wait measured. Measured
// besides: a year of 20 zones (a station and 19 rooms), a reading every
// 5 minutes, kept by a started hub: the longest write waited 2.0 s, the
// keeper's longest tick 1.6 s (at 10 minutes: 0.84 s). A hole: keepDays
// looks at its deadline only after a whole chunk of 31 days, hundreds
// of queries a measurement: a tick lasts several times its budget, and
// every write (an MQTT acknowledgement waits for Flush) waits as long.
func TestKeeperLetsWritesThrough(t *testing.T) {
	if testing.Short() {
		t.Skip("imports a month of a station")
	}
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "h.db")
	o := &Options{Now: testutil.FixedClock(now), Location: time.UTC}
	ctx := context.Background()
	s := openTest(t, path, o)
	s.w.days.keep = nil
	if _, err := s.ImportRows(ctx, &stationRows{t: now.AddDate(0, 0, -29), end: now.Add(-2 * time.Hour), step: time.Minute}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close(ctx)

	s = openTest(t, path, o)
	var longest time.Duration
	deadline := time.Now().Add(time.Minute)
	for i := 1; keptCount(t, s, "Garden") < 29 && time.Now().Before(deadline); i++ {
		r := sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: 8, Time: now.Add(-time.Duration(i) * time.Second), Source: "station/test"}
		start := time.Now()
		if err := s.Record(ctx, []sensors.Reading{r}); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		longest = max(longest, time.Since(start))
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the longest write while the keeper kept %d days: %s", keptCount(t, s, "Garden"), longest.Round(time.Millisecond))
	if longest > 2*keepBudget {
		t.Errorf("a write waited %s while the keeper kept the station's days; want at most twice the keeper's budget of %s a tick", longest.Round(time.Millisecond), keepBudget)
	}
}
