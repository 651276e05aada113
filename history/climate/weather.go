package climate

import (
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/weather"
)

// Thresholds of the derived weather keys: where each applies.
const (
	heatIndexFrom = 26.7 // °C: 80 °F, where the NWS heat index begins
	windChillTo   = 10   // °C: 50 °F, at or below which wind chill applies
	windChillFrom = 4.8  // km/h: 3 mph, above which it applies
	humidexFrom   = 20   // °C: the humidex is a summer index
)

// deriveZone adds to zone z the keys derived from several of its series
// at once, with the window of the lock's holder (shape): the day's
// strongest gust with its direction, and where the zone has wind, what
// the air feels like (derived from the latest values, as a station's
// console shows them).
func (l *Live) deriveZone(z map[string]any, zone string, h, midnight int64) {
	latest := func(m sensors.Measurement) (float64, bool) {
		s := l.series[seriesKey{zone, m}]
		if s == nil {
			return 0, false
		}
		p, ok := s.latest(h)
		return p.V, ok
	}
	if s := l.series[seriesKey{zone, sensors.GustStrength}]; s != nil {
		if _, hi, ok := Extremes(upTo(s.pts, h), midnight); ok {
			z[sensors.KeyMaxWindStr] = round(sensors.GustStrength, hi.V)
			z[sensors.KeyDateMaxWindStr] = hi.T
			if a, ok := l.directionAt(zone, hi.T); ok {
				z[sensors.KeyMaxWindAngle] = round(sensors.GustAngle, a)
			}
		}
	}
	t, okT := latest(sensors.Temperature)
	rh, okH := latest(sensors.Humidity)
	wind, okW := latest(sensors.WindStrength)
	if okT && okH && okW {
		feelsLike(z, t, rh, wind)
	}
}

// directionAt is the direction of the gust at t: the gust's own, else
// the wind's at that instant.
func (l *Live) directionAt(zone string, t int64) (float64, bool) {
	for _, m := range []sensors.Measurement{sensors.GustAngle, sensors.WindAngle} {
		if s := l.series[seriesKey{zone, m}]; s != nil {
			if p := between(s.pts, t-1, t); len(p) == 1 {
				return p[0].V, true
			}
		}
	}
	return 0, false
}

// feelsLike adds what air at t °C and rh % with a wind of wind km/h feels
// like, each key where it applies (sensors/weather cites the formulas).
func feelsLike(z map[string]any, t, rh, wind float64) {
	deg := func(v float64) float64 { return round(sensors.Temperature, v) }
	ms := wind / 3.6
	td := weather.DewPoint(t, rh)
	z[sensors.KeyFeelsLike] = deg(weather.ApparentTemperature(t, rh, ms))
	z[sensors.KeyDewPoint] = deg(td)
	if hi := weather.HeatIndex(t, rh); hi >= heatIndexFrom {
		z[sensors.KeyHeatIndex] = deg(hi)
	}
	if t <= windChillTo && wind > windChillFrom {
		z[sensors.KeyWindChill] = deg(weather.WindChill(t, ms))
	}
	if t >= humidexFrom {
		z[sensors.KeyHumidex] = deg(weather.Humidex(t, td))
	}
}
