package climate

import (
	"math"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// station is a zone's readings at one instant.
func station(zone string, at time.Time, vs map[sensors.Measurement]float64) []sensors.Reading {
	var rs []sensors.Reading
	for m, v := range vs {
		rs = append(rs, sensors.Reading{Zone: zone, Measurement: m, Value: v, Time: at})
	}
	return rs
}

// TestWeatherKeys: a zone with wind gets what the air feels like, each
// key only where it applies, against published values: the NWS heat
// index table (86 °F at 60 % is 91 °F), the NWS wind chill chart (5 °F in
// 15 mph is −13 °F), Environment Canada's humidex table (30 °C with a dew
// point of 25 °C is 42) and the BoM formula worked by hand (30 °C, 50 %,
// 2 m/s is 31.577 °C). A zone without wind gets none of them.
func TestWeatherKeys(t *testing.T) {
	at := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	fToC := func(f float64) float64 { return (f - 32) * 5 / 9 }
	for _, c := range []struct {
		name    string
		vs      map[sensors.Measurement]float64
		want    map[string]float64 // key → value, within tol
		tol     float64
		without []string
	}{
		{"hot and humid", map[sensors.Measurement]float64{sensors.Temperature: fToC(86), sensors.Humidity: 60, sensors.WindStrength: 7.2},
			map[string]float64{sensors.KeyHeatIndex: fToC(91)}, 0.3, []string{sensors.KeyWindChill}},
		{"cold and windy", map[sensors.Measurement]float64{sensors.Temperature: fToC(5), sensors.Humidity: 70, sensors.WindStrength: 15 * 1.609344},
			map[string]float64{sensors.KeyWindChill: fToC(-13)}, 0.3, []string{sensors.KeyHeatIndex, sensors.KeyHumidex}},
		{"humidex", map[sensors.Measurement]float64{sensors.Temperature: 30, sensors.Humidity: 74.7, sensors.WindStrength: 3.6},
			map[string]float64{sensors.KeyHumidex: 42, sensors.KeyDewPoint: 25}, 0.55, []string{sensors.KeyWindChill}},
		{"feels like", map[sensors.Measurement]float64{sensors.Temperature: 30, sensors.Humidity: 50, sensors.WindStrength: 7.2},
			map[string]float64{sensors.KeyFeelsLike: 31.6}, 0.051, []string{sensors.KeyWindChill}},
	} {
		l := New(&Options{Location: time.UTC, Now: func() time.Time { return at }})
		l.Add(station("Garden", at, c.vs))
		l.Add(station("Indoor", at, map[sensors.Measurement]float64{sensors.Temperature: c.vs[sensors.Temperature], sensors.Humidity: c.vs[sensors.Humidity]}))
		snap := l.Snapshot().Climate
		z := snap["Garden"]
		for k, w := range c.want {
			if v, ok := z[k].(float64); !ok || math.Abs(v-w) > c.tol {
				t.Errorf("%s: %s = %v, want %.2f (±%g)", c.name, k, z[k], w, c.tol)
			}
		}
		for _, k := range append(c.without, sensors.KeyFeelsLike) {
			if _, ok := z[k]; ok && k != sensors.KeyFeelsLike {
				t.Errorf("%s: %s = %v where it does not apply", c.name, k, z[k])
			}
			if v, ok := snap["Indoor"][k]; ok {
				t.Errorf("%s: the zone without wind has %s = %v", c.name, k, v)
			}
		}
	}
}

// TestMaxWindOfTheDay: the day's strongest gust since local midnight,
// with its direction (the gust's own, else the wind's at that instant)
// and time; yesterday's stronger gust does not count.
func TestMaxWindOfTheDay(t *testing.T) {
	now := time.Date(2026, 3, 10, 15, 0, 0, 0, time.UTC)
	l := New(&Options{Location: time.UTC, Now: func() time.Time { return now }})
	at := func(h int) time.Time { return now.Add(time.Duration(h) * time.Hour) }
	l.Add(station("Garden", at(-16), map[sensors.Measurement]float64{sensors.GustStrength: 90, sensors.WindAngle: 200}))
	l.Add(station("Garden", at(-5), map[sensors.Measurement]float64{sensors.GustStrength: 41, sensors.WindAngle: 275}))
	l.Add(station("Garden", at(-2), map[sensors.Measurement]float64{sensors.GustStrength: 22, sensors.WindAngle: 260}))
	z := l.Snapshot().Climate["Garden"]
	if z[sensors.KeyMaxWindStr] != 41.0 || z[sensors.KeyMaxWindAngle] != 275.0 || z[sensors.KeyDateMaxWindStr] != at(-5).Unix() {
		t.Errorf("max wind %v at %v from %v; want 41 km/h at %d from 275°", z[sensors.KeyMaxWindStr], z[sensors.KeyDateMaxWindStr], z[sensors.KeyMaxWindAngle], at(-5).Unix())
	}
}

// TestLightningSums: strikes add up over the last hour and day.
func TestLightningSums(t *testing.T) {
	now := time.Date(2026, 7, 1, 18, 0, 0, 0, time.UTC)
	l := New(&Options{Location: time.UTC, Now: func() time.Time { return now }})
	for _, c := range []struct {
		ago time.Duration
		n   float64
	}{{90 * time.Minute, 5}, {20 * time.Minute, 3}, {0, 7}} {
		l.Add(station("Storm", now.Add(-c.ago), map[sensors.Measurement]float64{sensors.Lightning: c.n}))
	}
	z := l.Snapshot().Climate["Storm"]
	if z[sensors.KeySumLightning1] != 10.0 || z[sensors.KeySumLightning24] != 15.0 {
		t.Errorf("strikes: %v in the hour, %v in the day; want 10 and 15", z[sensors.KeySumLightning1], z[sensors.KeySumLightning24])
	}
}
