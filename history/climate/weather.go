package climate

import (
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/weather"
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
// like, each key where it applies (weather.Feels).
func feelsLike(z map[string]any, t, rh, wind float64) {
	deg := func(v float64) float64 { return round(sensors.Temperature, v) }
	f := weather.Feels(t, rh, wind)
	z[sensors.KeyFeelsLike] = deg(f.Apparent)
	z[sensors.KeyDewPoint] = deg(f.DewPoint)
	if f.HasHeatIndex {
		z[sensors.KeyHeatIndex] = deg(f.HeatIndex)
	}
	if f.HasWindChill {
		z[sensors.KeyWindChill] = deg(f.WindChill)
	}
	if f.HasHumi {
		z[sensors.KeyHumidex] = deg(f.Humidex)
	}
}
