package history

import (
	"context"
	"fmt"
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
// values from each 5-minute archive record; a span older than the
// 5-minute buckets' retention, or too long for them, is read from the
// hourly ones.
type FeelsLike struct {
	Min          float64  `json:"min"`
	Max          float64  `json:"max"`
	HeatIndexMax *float64 `json:"heat_index_max,omitempty"`
	WindChillMin *float64 `json:"wind_chill_min,omitempty"`
}

// feelMeasurements are what FeelsLike is derived from.
var feelMeasurements = []sensors.Measurement{sensors.Temperature, sensors.Humidity, sensors.WindStrength}

// addFeelsLike adds FeelsLike to the days of zone (each starting at the
// local midnight of its date) that have all of feelMeasurements. Each
// measurement is read once for all the days (a year of them is three
// queries, not three a day), from the finest tier that answers the span.
func (s *Store) addFeelsLike(ctx context.Context, zone string, days []Day) error {
	if len(days) == 0 {
		return nil
	}
	loc := s.opts.Location
	from, err := time.ParseInLocation(time.DateOnly, days[0].Date, loc)
	if err != nil {
		return err
	}
	last, err := time.ParseInLocation(time.DateOnly, days[len(days)-1].Date, loc)
	if err != nil {
		return err
	}
	var means [3]map[int64]float64
	for j, m := range feelMeasurements {
		if means[j], err = s.bucketMeans(ctx, zone, m, from, nextMidnight(last, loc)); err != nil {
			return err
		}
	}
	byDay := map[string]*[3]map[int64]float64{}
	for j := range means {
		for t, v := range means[j] {
			date := time.Unix(t, 0).In(loc).Format(time.DateOnly)
			if byDay[date] == nil {
				byDay[date] = &[3]map[int64]float64{{}, {}, {}}
			}
			byDay[date][j][t] = v
		}
	}
	for i := range days {
		if d := byDay[days[i].Date]; d != nil {
			days[i].FeelsLike = feelsOver(*d)
		}
	}
	return nil
}

// bucketMeans are m's means in zone per 5-minute bucket of [from, to)
// (per hour where only the hourly tier answers the span).
func (s *Store) bucketMeans(ctx context.Context, zone string, m sensors.Measurement, from, to time.Time) (map[int64]float64, error) {
	out := map[int64]float64{}
	if now := s.opts.Now(); to.After(now) {
		to = now // today, so far
	}
	_, id, err := s.series(ctx, zone, m)
	if err != nil || id == 0 || !from.Before(to) {
		return out, err
	}
	tier, _ := s.pickTier(m, from, to, 5*time.Minute)
	step := int64(max(tier.width, 5*time.Minute) / time.Second)
	rows, err := s.rdb.QueryContext(ctx, fmt.Sprintf("SELECT t / ?1 * ?1 AS b, %s FROM %s WHERE series = ?2 AND t >= ?3 AND t < ?4 GROUP BY b",
		tier.mean, tier.table), step, id, from.Unix(), to.Unix())
	if err != nil {
		return nil, fmt.Errorf("feels like %s/%s: %w", zone, m, err)
	}
	defer rows.Close()
	div := tier.div(m)
	for rows.Next() {
		var b int64
		var v float64
		if err := rows.Scan(&b, &v); err != nil {
			return nil, err
		}
		out[b] = v / div
	}
	return out, rows.Err()
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
