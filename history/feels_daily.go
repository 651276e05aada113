package history

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/climated/climated/history/climate"
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
// local midnight of its date) that have all of feelMeasurements. Each day
// is read from the finest tier that answers that day alone, so a day's
// feels-like is the same whichever other days it is asked or kept with;
// days in a row that share a tier are read together (a year of them is
// a few queries per measurement, not three a day).
func (s *Store) addFeelsLike(ctx context.Context, zone string, days []Day) error {
	runs, err := s.feelsRuns(days)
	if err != nil {
		return err
	}
	loc := s.opts.Location
	byDay := map[string]*[3]map[int64]float64{}
	for _, r := range runs {
		for j, m := range feelMeasurements {
			means, err := s.bucketMeans(ctx, zone, m, r)
			if err != nil {
				return err
			}
			for t, v := range means {
				date := time.Unix(t, 0).In(loc).Format(time.DateOnly)
				if byDay[date] == nil {
					byDay[date] = &[3]map[int64]float64{{}, {}, {}}
				}
				byDay[date][j][t] = v
			}
		}
	}
	for i := range days {
		if d := byDay[days[i].Date]; d != nil {
			days[i].FeelsLike = feelsOver(*d)
		}
	}
	return nil
}

// feelsRun is days in a row read from one tier: [from, to), and the first
// day's bounds, by which the tier is picked.
type feelsRun struct {
	from, to       time.Time
	dayFrom, dayTo time.Time
	table          string
}

// feelsRuns groups days into runs of consecutive days for which pickTier
// picks the same tier, each day on its own.
func (s *Store) feelsRuns(days []Day) ([]feelsRun, error) {
	loc := s.opts.Location
	var runs []feelsRun
	for _, d := range days {
		date, err := time.ParseInLocation(time.DateOnly, d.Date, loc)
		if err != nil {
			return nil, err
		}
		from := climate.DayStart(date.Year(), date.Month(), date.Day(), loc)
		to := nextMidnight(from, loc)
		tier, _ := s.pickTier(sensors.Temperature, from, to, 5*time.Minute)
		if n := len(runs); n > 0 && runs[n-1].to.Equal(from) && runs[n-1].table == tier.table {
			runs[n-1].to = to
			continue
		}
		runs = append(runs, feelsRun{from: from, to: to, dayFrom: from, dayTo: to, table: tier.table})
	}
	return runs, nil
}

// bucketMeans are m's means in zone per 5-minute bucket of run (per hour
// where only the hourly tier answers its days).
func (s *Store) bucketMeans(ctx context.Context, zone string, m sensors.Measurement, run feelsRun) (map[int64]float64, error) {
	out := map[int64]float64{}
	from, to := run.from, run.to
	if now := s.opts.Now(); to.After(now) {
		to = now // today, so far
	}
	_, id, err := s.series(ctx, zone, m)
	if err != nil || id == 0 || !from.Before(to) {
		return out, err
	}
	tier, _ := s.pickTier(m, run.dayFrom, run.dayTo, 5*time.Minute)
	step := int64(max(tier.width, 5*time.Minute) / time.Second)
	rows, err := s.readRows(ctx, fmt.Sprintf("SELECT t / ?1 * ?1 AS b, %s FROM %s WHERE series = ?2 AND t >= ?3 AND t < ?4 GROUP BY b",
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
// humidity and a wind (weather.FeelRange), to a tenth; nil when none has
// all three.
func feelsOver(means [3]map[int64]float64) *FeelsLike {
	var r weather.FeelRange
	for t, temp := range means[0] {
		rh, okH := means[1][t]
		wind, okW := means[2][t]
		if okH && okW {
			r.Add(temp, rh, wind)
		}
	}
	if r.N == 0 {
		return nil
	}
	f := &FeelsLike{Min: tenth(r.Min), Max: tenth(r.Max)}
	if r.HasHeatIndex {
		f.HeatIndexMax = new(tenth(r.HeatIndexMax))
	}
	if r.HasWindChill {
		f.WindChillMin = new(tenth(r.WindChillMin))
	}
	return f
}

func tenth(v float64) float64 { return math.Round(v*10) / 10 }
