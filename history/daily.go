package history

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// MaxDays bounds a daily summary request.
const MaxDays = 366

// Day is one local calendar day of a zone. An outdoor zone's day has
// its degree days (with a temperature) and the sun's times (where the
// place is known) too: see Outdoors.
type Day struct {
	Date         string             `json:"date"`         // YYYY-MM-DD in the hub's time zone
	Measurements map[string]Summary `json:"measurements"` // each measurement over the day
	// Heating and cooling degree days: how far the day's mean temperature
	// fell below Outdoors.DegreeDayBase, and rose above it.
	HDD *float64 `json:"hdd,omitempty"`
	CDD *float64 `json:"cdd,omitempty"`
	// Sunrise and sunset, HH:MM in the hub's time zone, and the time
	// between them (9h41m; 0h00m or 24h00m where the sun does not rise or
	// set).
	Sunrise  string `json:"sunrise,omitempty"`
	Sunset   string `json:"sunset,omitempty"`
	Daylight string `json:"daylight,omitempty"`
	// FeelsLike: in a zone with wind, what the air felt like over the day.
	FeelsLike *FeelsLike `json:"feels_like,omitempty"`
}

// Daily summarises every measurement of zone per local day, for the days
// that overlap [from, to). Days without readings are left out. The days
// kept (daykeep.go) are read as kept; the others, today's and those not
// kept yet, are summarised from the tiers.
func (s *Store) Daily(ctx context.Context, zone string, from, to time.Time) ([]Day, error) {
	if !from.Before(to) {
		return nil, argError("range", nil, "from %s is not before to %s", from.UTC().Format(time.RFC3339), to.UTC().Format(time.RFC3339))
	}
	zi, err := s.zoneNamed(ctx, zone)
	if err != nil {
		return nil, err
	}
	starts, err := dayStarts(from, to, s.opts.Location)
	if err != nil {
		return nil, err
	}
	days, err := s.memoDays(ctx, zi, starts)
	if err != nil {
		return nil, err
	}
	out := days[:0]
	for _, d := range days {
		if len(d.Measurements) > 0 {
			out = append(out, d)
		}
	}
	return out, nil
}

// zoneDays are the days of z that start at starts (readDays), an
// outdoor zone's with their degree days and the sun's times.
func (s *Store) zoneDays(ctx context.Context, z zoneSeries, starts []time.Time) ([]Day, error) {
	days, err := s.readDays(ctx, z, starts)
	if err != nil {
		return nil, err
	}
	if o := s.opts.Outdoors; o != nil && o.isOutdoor(z.Name, z.Measurements) {
		for i := range days {
			if len(days[i].Measurements) > 0 {
				o.addOutdoors(days[i:i+1], s.opts.Location)
			}
		}
	}
	return days, nil
}

// readDays are the days of z that start at starts: kept ones as kept,
// the rest summarised (liveDays).
func (s *Store) readDays(ctx context.Context, z zoneSeries, starts []time.Time) ([]Day, error) {
	days, live, err := s.keptOrLive(ctx, z.Name, starts)
	if err != nil || len(live) == 0 {
		return days, err
	}
	computed, err := s.liveDays(ctx, z, startsAt(starts, live))
	if err != nil {
		return nil, err
	}
	for j, i := range live {
		days[i] = computed[j]
	}
	return days, nil
}

// keptOrLive are the days of zone that start at starts, the kept ones as
// kept and the others without measurements, and which of the others
// (indexes into starts) may have readings to summarise: those before the
// zone's newest reading.
func (s *Store) keptOrLive(ctx context.Context, zone string, starts []time.Time) ([]Day, []int, error) {
	until, err := s.keptUntil(ctx, zone)
	if err != nil {
		return nil, nil, err
	}
	kept, err := s.keptDays(ctx, zone, starts[0].Unix(), until.Unix())
	if err != nil {
		return nil, nil, err
	}
	days := make([]Day, len(starts))
	var live []int
	for i, d := range starts {
		k, ok := kept[d.Unix()]
		if ok && !nextMidnight(d, s.opts.Location).After(until) {
			days[i] = k.day(d.Format(time.DateOnly))
			continue
		}
		days[i] = Day{Date: d.Format(time.DateOnly), Measurements: map[string]Summary{}}
		live = append(live, i)
	}
	live, err = s.beforeNewest(ctx, zone, starts, live)
	return days, live, err
}

// startsAt are the starts at indexes at.
func startsAt(starts []time.Time, at []int) []time.Time {
	out := make([]time.Time, len(at))
	for j, i := range at {
		out[j] = starts[i]
	}
	return out
}

// beforeNewest are the days of live (indexes into starts) that start
// before the end of the hour of zone's newest reading, found from each
// series' index: the days after it (the rest of the year YearOf reads)
// have no readings, and are not summarised a measurement at a time.
func (s *Store) beforeNewest(ctx context.Context, zone string, starts []time.Time, live []int) ([]int, error) {
	if len(live) == 0 {
		return live, nil
	}
	var newest sql.NullInt64
	err := s.readRow(ctx, `SELECT max(t) FROM (
		SELECT (SELECT max(t) FROM rollup_1h WHERE series = s.id) AS t FROM series s WHERE s.zone = ?1
		UNION ALL SELECT (SELECT max(t) FROM recent WHERE series = s.id) FROM series s WHERE s.zone = ?1)`, zone).Scan(&newest)
	if err != nil {
		return nil, fmt.Errorf("read the newest reading of %s: %w", zone, err)
	}
	end := newest.Int64 + 3600 // the end of its hour: rollup_1h holds hours
	out := live[:0]
	for _, i := range live {
		if newest.Valid && starts[i].Unix() < end {
			out = append(out, i)
		}
	}
	return out, nil
}

// liveDays summarises every measurement of z, and its feels-like, for
// the days that start at starts, from the finest tiers that hold them;
// a day without readings has no measurements.
func (s *Store) liveDays(ctx context.Context, z zoneSeries, starts []time.Time) ([]Day, error) {
	days := make([]Day, len(starts))
	for i, d := range starts {
		days[i] = Day{Date: d.Format(time.DateOnly), Measurements: map[string]Summary{}}
	}
	for _, m := range z.Measurements {
		if err := s.fillDays(ctx, z.Name, m, starts, days); err != nil {
			return nil, err
		}
	}
	if hasAll(z.Measurements, feelMeasurements) {
		var some []Day
		var at []int
		for i, d := range days {
			if len(d.Measurements) > 0 {
				some, at = append(some, d), append(at, i)
			}
		}
		if err := s.addFeelsLike(ctx, z.Name, some); err != nil {
			return nil, err
		}
		for j, i := range at {
			days[i] = some[j]
		}
	}
	return days, nil
}

// hasAll reports whether ms has every one of want.
func hasAll(ms, want []sensors.Measurement) bool {
	for _, m := range want {
		if !slices.Contains(ms, m) {
			return false
		}
	}
	return true
}

// zoneNamed finds the zone called zone, or says which zones there are.
func (s *Store) zoneNamed(ctx context.Context, zone string) (zoneSeries, error) {
	zs, err := s.zoneSeries(ctx)
	if err != nil {
		return zoneSeries{}, err
	}
	i := slices.IndexFunc(zs, func(z zoneSeries) bool { return z.Name == zone })
	if i < 0 {
		zones := zoneNames(zs)
		return zoneSeries{}, argError("zone", zones, "unknown zone %q; the zones are %s", zone, strings.Join(zones, ", "))
	}
	return zs[i], nil
}

// dayStarts returns the local midnights that start the days overlapping
// [from, to), at most MaxDays of them.
func dayStarts(from, to time.Time, loc *time.Location) ([]time.Time, error) {
	var starts []time.Time
	for d := climate.LocalMidnight(from, loc); d.Before(to); d = nextMidnight(d, loc) {
		if len(starts) == MaxDays {
			return nil, argError("range", nil, "range of more than %d days: ask for a shorter one", MaxDays)
		}
		starts = append(starts, d)
	}
	return starts, nil
}

// fillDays summarises measurement m of zone into days, the days that
// start at starts; a series not written yet leaves them as they are.
func (s *Store) fillDays(ctx context.Context, zone string, m sensors.Measurement, starts []time.Time, days []Day) error {
	info, id, err := s.series(ctx, zone, m)
	if err != nil {
		return err
	}
	if id == 0 {
		return nil // not written yet
	}
	loc := s.opts.Location
	for i, d := range starts {
		tier, _ := s.pickTier(m, d, nextMidnight(d, loc), time.Hour)
		st, ok, err := s.dayStats(ctx, tier, id, d.Unix(), nextMidnight(d, loc).Unix(), m, info.Kind)
		if err != nil {
			return fmt.Errorf("daily %s/%s %s: %w", zone, m, days[i].Date, err)
		}
		if ok {
			days[i].Measurements[string(m)] = st
		}
	}
	return nil
}

func (s *Store) dayStats(ctx context.Context, tier tierSQL, id, from, to int64, m sensors.Measurement, kind sensors.Kind) (Summary, bool, error) {
	var st Summary
	var sum float64
	err := s.readRow(ctx, fmt.Sprintf("SELECT coalesce(%s, 0), coalesce(%s, 0) FROM %s WHERE series = ? AND t >= ? AND t < ?",
		tier.count, tier.sum, tier.table), id, from, to).Scan(&st.Count, &sum)
	if err != nil || st.Count == 0 {
		return st, false, err
	}
	st, err = s.summarise(ctx, tier, id, from, to, m, kind, st.Count, sum/tier.div(m))
	if err != nil {
		return st, false, err
	}
	return st, true, nil
}

// nextMidnight is the start of the local day after the one starting at d;
// days of 23 or 25 hours come out right because the date is advanced, not
// the clock.
func nextMidnight(d time.Time, loc *time.Location) time.Time {
	y, m, day := d.In(loc).Date()
	return climate.DayStart(y, m, day+1, loc)
}
