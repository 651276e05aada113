package history

import (
	"context"
	"math"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/weather"
)

// FeelsLike is what the air felt like over a day in a zone with wind,
// temperature and humidity (a station's outdoor array): the lowest and
// highest apparent temperature, and the highest heat index and lowest
// wind chill where they applied (weather.Feels). Each comes from the three
// measurements' means over the same 5 minutes, as weewx derives its daily
// values from each 5-minute archive record; a day older than the
// 5-minute buckets' retention is read from the hourly ones.
type FeelsLike struct {
	Min          float64  `json:"min"`
	Max          float64  `json:"max"`
	HeatIndexMax *float64 `json:"heat_index_max,omitempty"`
	WindChillMin *float64 `json:"wind_chill_min,omitempty"`
}

// feelMeasurements are what FeelsLike is derived from.
var feelMeasurements = []sensors.Measurement{sensors.Temperature, sensors.Humidity, sensors.WindStrength}

// addFeelsLike adds FeelsLike to the days of zone (each starting at the
// local midnight of its date) that have all of feelMeasurements.
func (s *Store) addFeelsLike(ctx context.Context, zone string, days []Day) error {
	for i := range days {
		d := &days[i]
		start, err := time.ParseInLocation(time.DateOnly, d.Date, s.opts.Location)
		if err != nil {
			return err
		}
		var means [3]map[int64]float64
		for j, m := range feelMeasurements {
			if means[j], err = s.bucketMeans(ctx, zone, m, start, nextMidnight(start, s.opts.Location)); err != nil {
				return err
			}
		}
		d.FeelsLike = feelsOver(means)
	}
	return nil
}

// bucketMeans are m's means in zone per 5-minute bucket of [from, to).
func (s *Store) bucketMeans(ctx context.Context, zone string, m sensors.Measurement, from, to time.Time) (map[int64]float64, error) {
	out := map[int64]float64{}
	if now := s.opts.Now(); to.After(now) {
		to = now // today, so far
	}
	if !from.Before(to) {
		return out, nil
	}
	series, err := s.Range(ctx, Query{Zone: zone, Measurement: m, From: from, To: to, Step: 5 * time.Minute, MaxPoints: MaxPoints})
	if err != nil {
		return nil, err
	}
	for _, p := range series.Points {
		out[int64(p[0])] = p[1]
	}
	return out, nil
}

// feelsOver is FeelsLike over the buckets that have a temperature, a
// humidity and a wind; nil when none has all three.
func feelsOver(means [3]map[int64]float64) *FeelsLike {
	var f *FeelsLike
	for t, temp := range means[0] {
		rh, okH := means[1][t]
		wind, okW := means[2][t]
		if !okH || !okW {
			continue
		}
		feel := weather.Feels(temp, rh, wind)
		if f == nil {
			f = &FeelsLike{Min: math.Inf(1), Max: math.Inf(-1)}
		}
		f.Min, f.Max = min(f.Min, feel.Apparent), max(f.Max, feel.Apparent)
		if feel.HasHeatIndex {
			f.HeatIndexMax = new(max(deref(f.HeatIndexMax, feel.HeatIndex), feel.HeatIndex))
		}
		if feel.HasWindChill {
			f.WindChillMin = new(min(deref(f.WindChillMin, feel.WindChill), feel.WindChill))
		}
	}
	if f == nil {
		return nil
	}
	f.Min, f.Max = tenth(f.Min), tenth(f.Max)
	for _, p := range []*float64{f.HeatIndexMax, f.WindChillMin} {
		if p != nil {
			*p = tenth(*p)
		}
	}
	return f
}

func deref(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

func tenth(v float64) float64 { return math.Round(v*10) / 10 }
