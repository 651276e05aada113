package history

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// MaxDays bounds a daily summary request.
const MaxDays = 366

// Day is one local calendar day of a zone.
type Day struct {
	Date         string             `json:"date"`         // YYYY-MM-DD in the hub's time zone
	Measurements map[string]Summary `json:"measurements"` // each measurement over the day
}

// Daily summarises every measurement of zone per local day, for the days
// that overlap [from, to). Days without readings are left out.
func (s *Store) Daily(ctx context.Context, zone string, from, to time.Time) ([]Day, error) {
	if !from.Before(to) {
		return nil, fmt.Errorf("from %s is not before to %s", from.UTC().Format(time.RFC3339), to.UTC().Format(time.RFC3339))
	}
	zs, err := s.zoneSeries(ctx)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(zs, func(z zoneSeries) bool { return z.Name == zone })
	if i < 0 {
		return nil, fmt.Errorf("unknown zone %q; the zones are %v", zone, zoneNames(zs))
	}
	zi := zs[i]
	loc := s.opts.Location
	var starts []time.Time
	for d := climate.LocalMidnight(from, loc); d.Before(to); d = nextMidnight(d, loc) {
		if len(starts) == MaxDays {
			return nil, fmt.Errorf("range of more than %d days: ask for a shorter one", MaxDays)
		}
		starts = append(starts, d)
	}
	days := make([]Day, len(starts))
	for i, d := range starts {
		days[i] = Day{Date: d.Format(time.DateOnly), Measurements: map[string]Summary{}}
	}
	for _, m := range zi.Measurements {
		info, id, err := s.series(ctx, zone, m)
		if err != nil {
			return nil, err
		}
		if id == 0 {
			continue // not written yet
		}
		for i, d := range starts {
			tier, _ := s.pickTier(m, d, nextMidnight(d, loc), time.Hour)
			st, ok, err := s.dayStats(ctx, tier, id, d.Unix(), nextMidnight(d, loc).Unix(), m, info.Kind)
			if err != nil {
				return nil, fmt.Errorf("daily %s/%s %s: %w", zone, m, days[i].Date, err)
			}
			if ok {
				days[i].Measurements[string(m)] = st
			}
		}
	}
	out := days[:0]
	for _, d := range days {
		if len(d.Measurements) > 0 {
			out = append(out, d)
		}
	}
	return out, nil
}

func (s *Store) dayStats(ctx context.Context, tier tierSQL, id, from, to int64, m sensors.Measurement, kind sensors.Kind) (Summary, bool, error) {
	var st Summary
	var sum float64
	err := s.rdb.QueryRowContext(ctx, fmt.Sprintf("SELECT coalesce(%s, 0), coalesce(%s, 0) FROM %s WHERE series = ? AND t >= ? AND t < ?",
		tier.count, tier.sum, tier.table), id, from, to).Scan(&st.Count, &sum)
	if err != nil || st.Count == 0 {
		return st, false, err
	}
	if err := s.extreme(ctx, tier, "min", id, from, to, &st.MinTime, &st.Min); err != nil {
		return st, false, err
	}
	if err := s.extreme(ctx, tier, "max", id, from, to, &st.MaxTime, &st.Max); err != nil {
		return st, false, err
	}
	div := tier.div(m)
	sum /= div
	st.Min, st.Max, st.Mean = round(m, st.Min/div), round(m, st.Max/div), roundMore(m, sum/float64(st.Count))
	if kind == sensors.Amount {
		total := round(m, sum)
		st.Sum = &total
	}
	return st, true, nil
}

// nextMidnight is the start of the local day after the one starting at d;
// days of 23 or 25 hours come out right because the date is advanced, not
// the clock.
func nextMidnight(d time.Time, loc *time.Location) time.Time {
	y, m, day := d.In(loc).Date()
	return time.Date(y, m, day+1, 0, 0, 0, 0, loc)
}
