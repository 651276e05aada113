package climate

import (
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// A reading stamped a year ahead of the clock (a clock set wrong) is held,
// not current: the real readings before it stay the latest, When, the
// extremes and the trend, and the window is still measured from them. Once
// the clock reaches it, it counts. Before, it became the latest at once
// and the window, measured from it, dropped every real reading.
func TestReadingAheadOfTheClockIsNotCurrent(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clock := now
	l := New(&Options{Location: time.UTC, Now: func() time.Time { return clock }})
	temp := func(at time.Time, v float64) sensors.Reading {
		return sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: v, Time: at, Source: "t"}
	}
	var real []sensors.Reading
	for i := 60; i >= 0; i -= 5 {
		real = append(real, temp(now.Add(-time.Duration(i)*time.Minute), 20+float64(60-i)/60))
	}
	ahead := now.AddDate(1, 0, 0)
	l.Add([]sensors.Reading{temp(ahead, 35)})
	l.Add(real)
	l.Add([]sensors.Reading{temp(now.Add(MaxAhead), 21.5)}) // within the skew: current

	z := l.Snapshot().Climate["Indoor"]
	want := map[string]any{"Temperature": 21.5, sensors.KeyWhen: now.Add(MaxAhead).Unix(), sensors.KeyMinTemp: 20.0, sensors.KeyMaxTemp: 21.5,
		sensors.KeyDateMinTemp: now.Add(-time.Hour).Unix(), sensors.KeyTempTrend: Up}
	for k, v := range want {
		if z[k] != v {
			t.Errorf("%s = %v, want %v (zone %v)", k, z[k], v, z)
		}
	}
	if got := l.Latest(); !got.Equal(now.Add(MaxAhead)) {
		t.Errorf("Latest = %v, want %v", got, now.Add(MaxAhead))
	}
	if d := l.Describe(); len(d) != 1 || d[0].When != now.Add(MaxAhead).Unix() || d[0].Measurements[0].Value != 21.5 {
		t.Errorf("Describe = %+v", d)
	}
	if pts := l.Points("Indoor", sensors.Temperature, 0); len(pts) != len(real)+1 {
		t.Errorf("Points gave %d, want the %d current ones", len(pts), len(real)+1)
	}

	clock = ahead
	if z := l.Snapshot().Climate["Indoor"]; z["Temperature"] != 35.0 || z[sensors.KeyWhen] != ahead.Unix() {
		t.Errorf("once the clock reached it: %v", z)
	}
}

// A zone whose only readings are ahead of the clock is not there yet, and
// a clock that was never set (before ClockSet) judges nothing ahead.
func TestZoneOnlyAheadAndClockNotSet(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	r := sensors.Reading{Zone: "Attic", Measurement: sensors.Humidity, Value: 50, Time: now.Add(time.Hour), Source: "t"}
	l := New(&Options{Now: func() time.Time { return now }})
	l.Add([]sensors.Reading{r})
	if c := l.Snapshot().Climate; len(c) != 0 || len(l.Zones()) != 0 || len(l.Describe()) != 0 || !l.Latest().IsZero() {
		t.Errorf("a zone with readings ahead only: %v, zones %v", c, l.Zones())
	}
	unset := New(&Options{Now: func() time.Time { return time.Unix(30, 0) }})
	unset.Add([]sensors.Reading{r})
	if got := unset.Snapshot().Climate["Attic"]["Humidity"]; got != 50.0 {
		t.Errorf("with the clock not set: Humidity = %v, want 50", got)
	}
}
