package history

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestDailyFeelsLike: a day of a station's outdoor array gives what the
// air felt like from each 5 minutes' temperature, humidity and wind,
// against published values: the BoM formula worked by hand (10 °C, 40 %,
// 10 m/s is 0.618 °C; 30 °C, 50 %, 2 m/s is 31.577 °C), the NWS heat
// index table (86 °F at 50 % is 88 °F) and the NWS wind chill chart
// (40 °F in 5 mph is 36 °F). A zone without wind gets none.
func TestDailyFeelsLike(t *testing.T) {
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f := func(v float64) float64 { return (v - 32) * 5 / 9 }
	type air struct{ t, rh, kmh float64 }
	cold, cool, hot := air{10, 40, 36}, air{f(40), 70, 5 * 1.609344}, air{30, 50, 7.2}
	at := func(h int) air {
		switch {
		case h >= 8 && h < 12:
			return cool
		case h >= 12 && h < 18:
			return hot
		}
		return cold
	}
	var rs []sensors.Reading
	for i := range 288 {
		when := day.Add(time.Duration(i) * 5 * time.Minute)
		a := at(when.Hour())
		for m, v := range map[sensors.Measurement]float64{sensors.Temperature: a.t, sensors.Humidity: a.rh, sensors.WindStrength: a.kmh} {
			rs = append(rs, sensors.Reading{Zone: "Garden", Measurement: m, Value: v, Time: when, Source: "test"})
		}
		rs = append(rs, sensors.Reading{Zone: "Hall", Measurement: sensors.Temperature, Value: 21, Time: when, Source: "test"})
	}
	s := storeWith(t, time.UTC, day.Add(30*time.Hour), rs)
	days, err := s.Daily(context.Background(), "Garden", day, day.Add(24*time.Hour))
	if err != nil || len(days) != 1 {
		t.Fatalf("daily: %v, %v", days, err)
	}
	fl := days[0].FeelsLike
	if fl == nil || fl.Min != 0.6 || fl.Max != 31.6 || fl.HeatIndexMax == nil || fl.WindChillMin == nil {
		t.Fatalf("feels like %+v; want 0.6 to 31.6 °C, a heat index and a wind chill", fl)
	}
	if math.Abs(*fl.HeatIndexMax-f(88)) > 0.3 || math.Abs(*fl.WindChillMin-f(36)) > 0.3 {
		t.Errorf("heat index %.1f °C (the table: %.1f), wind chill %.1f °C (the chart: %.1f)", *fl.HeatIndexMax, f(88), *fl.WindChillMin, f(36))
	}
	hall, err := s.Daily(context.Background(), "Hall", day, day.Add(24*time.Hour))
	if err != nil || len(hall) != 1 || hall[0].FeelsLike != nil {
		t.Errorf("a zone without wind: %+v, %v", hall, err)
	}
}
