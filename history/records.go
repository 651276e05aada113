package history

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// RecordsNote says what a record's time means: the hourly tier keeps the
// extremes for ever but only the hour they fell in, the raw readings
// their exact time for RawRetention.
const RecordsNote = "times (unix s) are exact within the raw readings' retention, else the start of the hour the extreme fell in; " +
	"rain and other amounts: the wettest local day (max its total, day its date)"

// Records are a zone's records: the lowest and highest value of each
// measurement this (local, calendar) year and ever, with when. A
// direction's extremes say nothing and a device's health is no record, so
// those are left out; an amount's record (rain) is its largest day total.
type Records struct {
	Zone         string                        `json:"zone"`
	Year         int                           `json:"year"`
	Note         string                        `json:"note"`
	Measurements map[string]MeasurementRecords `json:"measurements,omitempty"`
	// Broken, for RecordsSince, are the records set since then.
	Broken []Broken `json:"broken,omitempty"`
}

// MeasurementRecords are one measurement's records; Year is nil before
// its first reading of the year.
type MeasurementRecords struct {
	Year *Record `json:"year,omitempty"`
	Ever Record  `json:"ever"`
}

// Record is a gauge's lowest and highest value with their times, or an
// amount's largest day total (Max) with the local date of that day (Day).
type Record struct {
	Min     *float64 `json:"min,omitempty"`
	MinTime int64    `json:"min_time,omitempty"`
	Max     float64  `json:"max"`
	MaxTime int64    `json:"max_time,omitempty"`
	Day     string   `json:"day,omitempty"`
}

// Broken is a record set since the time asked about, beating the one
// that stood before it (Was, at WasTime or on WasDay).
type Broken struct {
	Measurement string  `json:"measurement"`
	Record      string  `json:"record"` // "ever max", "year min", "ever wettest day" …
	Value       float64 `json:"value"`
	Time        int64   `json:"time,omitempty"`
	Day         string  `json:"day,omitempty"`
	Was         float64 `json:"was"`
	WasTime     int64   `json:"was_time,omitempty"`
	WasDay      string  `json:"was_day,omitempty"`
}

// Records reads zone's records.
func (s *Store) Records(ctx context.Context, zone string) (*Records, error) {
	return s.records(ctx, zone, time.Time{})
}

// RecordsSince reads the records of zone set since `since` (its Broken):
// those that beat a record standing before it. The first readings of a
// series beat nothing.
func (s *Store) RecordsSince(ctx context.Context, zone string, since time.Time) (*Records, error) {
	return s.records(ctx, zone, since)
}

func (s *Store) records(ctx context.Context, zone string, since time.Time) (*Records, error) {
	zi, err := s.zoneNamed(ctx, zone)
	if err != nil {
		return nil, err
	}
	loc := s.opts.Location
	now := s.opts.Now().In(loc)
	span := recordSpan{year: climate.DayStart(now.Year(), 1, 1, loc).Unix(), to: now.Unix() + 1}
	out := &Records{Zone: zone, Year: now.Year(), Note: RecordsNote}
	if since.IsZero() {
		out.Measurements = map[string]MeasurementRecords{}
	}
	for _, m := range zi.Measurements {
		info, id, err := s.series(ctx, zone, m)
		if err != nil {
			return nil, err
		}
		if id == 0 || info.Kind == sensors.Health || info.Kind == sensors.Direction {
			continue
		}
		rs := recordSeries{m: m, kind: info.Kind, id: id}
		if since.IsZero() {
			mr, ok, err := s.measurementRecords(ctx, rs, span)
			if err != nil {
				return nil, fmt.Errorf("records %s/%s: %w", zone, m, err)
			}
			if ok {
				out.Measurements[string(m)] = mr
			}
			continue
		}
		broken, err := s.broken(ctx, rs, span, since)
		if err != nil {
			return nil, fmt.Errorf("records %s/%s: %w", zone, m, err)
		}
		out.Broken = append(out.Broken, broken...)
	}
	return out, nil
}

// recordSpan is where records are read: ever is from the start of time,
// the year from the local new year; both up to to (unix s, excluded).
type recordSpan struct{ year, to int64 }

// recordSeries is one series records are read from.
type recordSeries struct {
	m    sensors.Measurement
	kind sensors.Kind
	id   int64
}

// measurementRecords reads the year's and the ever records of rs, the
// history once: before the year and the year, merged for ever; false
// when it has no readings.
func (s *Store) measurementRecords(ctx context.Context, rs recordSeries, span recordSpan) (MeasurementRecords, bool, error) {
	older, okOlder, err := s.record(ctx, rs, 0, span.year)
	if err != nil {
		return MeasurementRecords{}, false, err
	}
	year, okYear, err := s.record(ctx, rs, span.year, span.to)
	if err != nil {
		return MeasurementRecords{}, false, err
	}
	ever, ok := merge(older, okOlder, year, okYear)
	mr := MeasurementRecords{Ever: ever}
	if okYear {
		mr.Year = &year
	}
	return mr, ok, nil
}

// record is the record of rs over [from, to); false when there is no
// reading there.
func (s *Store) record(ctx context.Context, rs recordSeries, from, to int64) (Record, bool, error) {
	if rs.kind == sensors.Amount {
		return s.wettestDay(ctx, rs, from, to)
	}
	lo, loT, ok, err := s.recordExtreme(ctx, "min", rs, from, to)
	if err != nil || !ok {
		return Record{}, false, err
	}
	hi, hiT, _, err := s.recordExtreme(ctx, "max", rs, from, to)
	if err != nil {
		return Record{}, false, err
	}
	return Record{Min: &lo, MinTime: loT, Max: hi, MaxTime: hiT}, true, nil
}

// recordExtreme is the lowest or highest value of rs over [from, to) with
// its time: the whole (UTC) days between them from the daily tier, 365
// rows a year, then the extreme's day from the hours (hoursExtreme); the
// part days at either end from the hours.
func (s *Store) recordExtreme(ctx context.Context, fn string, rs recordSeries, from, to int64) (float64, int64, bool, error) {
	const day = 86400
	first := min(to, (from+day-1)/day*day) // the first whole day
	last := max(first, to-to%day)          // the end of the last
	var best extreme
	if first < last {
		_, t, ok, err := s.extremeIn(ctx, dailyTier.of(rs.m), fn, rs.id, first, last)
		if err != nil {
			return 0, 0, false, err
		}
		if ok {
			if err := best.take(fn, func() (float64, int64, bool, error) { return s.hoursExtreme(ctx, fn, rs, t, t+day) }); err != nil {
				return 0, 0, false, err
			}
		}
	}
	for _, part := range [][2]int64{{from, first}, {last, to}} {
		if part[0] >= part[1] {
			continue
		}
		if err := best.take(fn, func() (float64, int64, bool, error) { return s.hoursExtreme(ctx, fn, rs, part[0], part[1]) }); err != nil {
			return 0, 0, false, err
		}
	}
	return best.v, best.t, best.ok, nil
}

// extreme is the lowest or highest value found so far, the earliest of
// equal ones.
type extreme struct {
	v  float64
	t  int64
	ok bool
}

// take reads another candidate and keeps it where it is beyond (or as
// far and earlier than) the one kept.
func (e *extreme) take(fn string, read func() (float64, int64, bool, error)) error {
	v, t, ok, err := read()
	if err != nil || !ok {
		return err
	}
	if !e.ok || (fn == "min" && v < e.v) || (fn == "max" && v > e.v) || (v == e.v && t < e.t) {
		*e = extreme{v, t, true}
	}
	return nil
}

// hoursExtreme is recordExtreme over a part of a day: the whole hours
// from the hourly tier, the hours of from and of to, whose buckets also
// hold readings from outside the range, from the raw readings.
func (s *Store) hoursExtreme(ctx context.Context, fn string, rs recordSeries, from, to int64) (float64, int64, bool, error) {
	first := min(to, (from+3599)/3600*3600) // the first whole hour
	last := max(first, to-to%3600)          // the end of the last
	var best extreme
	if err := best.take(fn, func() (float64, int64, bool, error) {
		return s.hourExtreme(ctx, tierSQLs[hourly].of(rs.m), fn, rs, first, last)
	}); err != nil {
		return 0, 0, false, err
	}
	raw := tierSQLs[rawTier].of(rs.m)
	for _, part := range [][2]int64{{from, first}, {last, to}} {
		if part[0] >= part[1] {
			continue
		}
		if err := best.take(fn, func() (float64, int64, bool, error) {
			rv, rt, rok, err := s.extremeIn(ctx, raw, fn, rs.id, part[0], part[1])
			return round(rs.m, rv/raw.div(rs.m)), rt, rok, err
		}); err != nil {
			return 0, 0, false, err
		}
	}
	return best.v, best.t, best.ok, nil
}

// hourExtreme is the lowest or highest value of rs over [from, to) with
// the start of its hour, or its exact time while the raw readings of
// that hour are kept.
func (s *Store) hourExtreme(ctx context.Context, tier tierSQL, fn string, rs recordSeries, from, to int64) (float64, int64, bool, error) {
	v, t, ok, err := s.extremeIn(ctx, tier, fn, rs.id, from, to)
	if err != nil || !ok {
		return 0, 0, ok, err
	}
	// Within raw retention, the hour's raw readings give the exact time.
	if _, exact, found, err := s.extremeIn(ctx, tierSQLs[rawTier].of(rs.m), fn, rs.id, t, t+3600); err != nil {
		return 0, 0, false, err
	} else if found {
		t = exact
	}
	return round(rs.m, v/tier.div(rs.m)), t, true, nil
}

// extremeIn is the first row of tier with the lowest or highest value
// over [from, to) (SQLite's bare column of min/max); false when none.
func (s *Store) extremeIn(ctx context.Context, tier tierSQL, fn string, id, from, to int64) (float64, int64, bool, error) {
	col := tier.lowCol
	if fn == "max" {
		col = tier.highCol
	}
	var t sql.NullInt64
	var v sql.NullFloat64
	q := fmt.Sprintf("SELECT t, %s(%s) FROM %s WHERE series = ? AND t >= ? AND t < ?", fn, col, tier.table)
	if err := s.readRow(ctx, q, id, from, to).Scan(&t, &v); err != nil {
		return 0, 0, false, err
	}
	return v.Float64, t.Int64, v.Valid, nil
}

// wettestDay is the local day of [from, to) with the largest total of
// amount rs, summed from the hourly tier (the hours that have some).
func (s *Store) wettestDay(ctx context.Context, rs recordSeries, from, to int64) (Record, bool, error) {
	tier := tierSQLs[hourly].of(rs.m)
	rows, err := s.readRows(ctx, fmt.Sprintf("SELECT t, total FROM %s WHERE series = ? AND t >= ? AND t < ? AND total > 0", tier.table), rs.id, from, to)
	if err != nil {
		return Record{}, false, err
	}
	defer rows.Close()
	days := map[string]float64{}
	for rows.Next() {
		var t int64
		var v float64
		if err := rows.Scan(&t, &v); err != nil {
			return Record{}, false, err
		}
		days[time.Unix(t, 0).In(s.opts.Location).Format(time.DateOnly)] += v
	}
	if err := rows.Err(); err != nil {
		return Record{}, false, err
	}
	var best Record
	for day, v := range days {
		if v > best.Max || (v == best.Max && day < best.Day) {
			best = Record{Max: v, Day: day}
		}
	}
	best.Max = round(rs.m, best.Max)
	return best, best.Day != "", nil
}
