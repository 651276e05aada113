package weewx

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/excerpt"
	"github.com/climated/climated/sensors"
)

// Rows are an archive's records, oldest first, as rows of readings for
// history.Store.ImportRows.
type Rows struct {
	a    *Archive
	cols []mapped // the columns read, each with a zone
	rows *sql.Rows
	dest []any
	vals []any
	n    int64 // records read
}

var _ history.ImportRows = (*Rows)(nil)

// Rows starts reading the records.
func (a *Archive) Rows(ctx context.Context) (*Rows, error) {
	r := &Rows{a: a}
	sel := []string{"dateTime", "usUnits"}
	for _, c := range a.read {
		if c.zone != "" {
			r.cols = append(r.cols, c)
			sel = append(sel, quote(c.name))
		}
	}
	rows, err := a.tx.QueryContext(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM archive ORDER BY dateTime")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.path, err)
	}
	r.rows = rows
	r.vals = make([]any, len(sel))
	r.dest = make([]any, len(sel))
	for i := range r.vals {
		r.dest[i] = &r.vals[i]
	}
	return r, nil
}

// Read is how many records have been read.
func (r *Rows) Read() int64 { return r.n }

// Close ends the reading.
func (r *Rows) Close() error { return r.rows.Close() }

// Next is the next record's readings; io.EOF after the last.
func (r *Rows) Next(ctx context.Context) (history.ImportRow, error) {
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return history.ImportRow{}, fmt.Errorf("%s: %w", r.a.path, err)
		}
		return history.ImportRow{}, io.EOF
	}
	if err := r.rows.Scan(r.dest...); err != nil {
		return history.ImportRow{}, fmt.Errorf("%s: %w", r.a.path, err)
	}
	r.n++
	ts, _ := r.vals[0].(int64)
	row := history.ImportRow{Line: int(r.n), Where: fmt.Sprintf("record %d (dateTime %d, %s)", r.n, ts, time.Unix(ts, 0).UTC().Format(time.RFC3339))}
	if ts <= 0 {
		row.Err = fmt.Errorf("dateTime %v: not a time", r.vals[0])
		return row, nil
	}
	system, ok := r.vals[1].(int64)
	unit, known := units[int(system)]
	if !ok || !known {
		row.Err = fmt.Errorf("usUnits %v: none of weewx's unit systems (%d US, %d METRIC, %d METRICWX)", r.vals[1], US, METRIC, METRICWX)
		return row, nil
	}
	var errs []error
	for i, c := range r.cols {
		rd, ok, err := c.reading(r.vals[i+2], unit[c.g], ts)
		if err != nil {
			errs = append(errs, err)
		} else if ok {
			row.Readings = append(row.Readings, rd)
		}
	}
	row.Err = errors.Join(errs...)
	return row, nil
}

// reading is the value v of column c in unit, at dateTime ts: false for
// a NULL, which is no reading (not a zero). An amount (rain) is what
// fell over the record's interval, which ends at ts; weewx counts it in
// the hour and day the interval ends in, and a record at midnight ends
// the day before, so it is stamped a second before ts, in that day.
func (c mapped) reading(v any, unit string, ts int64) (sensors.Reading, bool, error) {
	f, ok, err := number(v)
	if err != nil || !ok {
		if err != nil {
			err = fmt.Errorf("%s: %w", c.name, err)
		}
		return sensors.Reading{}, false, err
	}
	where := c.name + " " + strconv.FormatFloat(f, 'g', -1, 64)
	if unit != "" {
		where += " " + unit
	}
	got, err := c.m.Convert(f, unit)
	if err == nil {
		err = c.m.Check(got)
	}
	if err != nil {
		return sensors.Reading{}, false, fmt.Errorf("%s: %w", where, err)
	}
	t := time.Unix(ts, 0)
	if info, _ := sensors.Lookup(c.m); info.Kind == sensors.Amount {
		t = t.Add(-time.Second)
	}
	return sensors.Reading{Zone: c.zone, Measurement: c.m, Value: got, Time: t, Source: Source}, true, nil
}

// number is a column's value as a number; false for NULL.
func number(v any) (float64, bool, error) {
	switch x := v.(type) {
	case nil:
		return 0, false, nil
	case int64:
		return float64(x), true, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, false, fmt.Errorf("%v is not a number", x)
		}
		return x, true, nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return 0, false, fmt.Errorf("%s is not a number", excerpt.Quote(x))
		}
		return f, true, nil
	case []byte:
		return number(string(x))
	}
	return 0, false, fmt.Errorf("%v is not a number", v)
}
