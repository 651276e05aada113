package history

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// ExportHeader is the first line of an export in CSV, and what Import reads.
var ExportHeader = []string{"time", "zone", "measurement", "value", "source"}

// Export selects raw readings; empty fields select everything.
type Export struct {
	Zone        string
	Measurement sensors.Measurement
	From, To    time.Time // To is exclusive; zero means unbounded
	Format      string    // "csv" (default) or "json"
	Progress    func(n int64)
}

// exportRow is one reading in JSON.
type exportRow struct {
	Time        string              `json:"time"`
	Zone        string              `json:"zone"`
	Measurement sensors.Measurement `json:"measurement"`
	Value       float64             `json:"value"`
	Source      string              `json:"source,omitempty"`
}

// exportValue is v as exported: amounts (rain) at the resolution the
// structure shows them, three decimals at most (the gauge records its
// tips so, carrying the rounding); other values as stored.
func exportValue(m sensors.Measurement, v float64) float64 {
	if info, ok := sensors.Lookup(m); ok && info.Kind == sensors.Amount {
		return m.Round(v, 0)
	}
	return v
}

// progressEvery is how many rows pass between calls of Progress.
const progressEvery = 50_000

// Export writes the raw readings that e selects to w, series by series in
// time order, and returns how many it wrote. CSV rows are time (RFC 3339,
// UTC), zone, measurement, value, source; JSON is an array of objects with
// the same fields.
func (s *Store) Export(ctx context.Context, w io.Writer, e Export) (int64, error) {
	where, args := exportWhere(e)
	rows, err := s.rdb.QueryContext(ctx, `SELECT s.zone, s.measurement, s.source, r.t, r.v
		FROM `+rawView+` r JOIN series s ON s.id = r.series WHERE `+where+` ORDER BY r.series, r.t`, args...)
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	defer rows.Close()
	bw := bufio.NewWriter(w)
	out, finish, err := exportEncoder(bw, e.Format)
	if err != nil {
		return 0, err
	}
	n, err := exportRows(rows, out, e.Progress)
	if err != nil {
		return n, err
	}
	if err := finish(); err != nil {
		return n, err
	}
	return n, bw.Flush()
}

// exportWhere is the condition that selects e's readings, and its
// arguments.
func exportWhere(e Export) (string, []any) {
	where, args := []string{"1"}, []any{}
	if e.Zone != "" {
		where, args = append(where, "s.zone = ?"), append(args, e.Zone)
	}
	if e.Measurement != "" {
		where, args = append(where, "s.measurement = ?"), append(args, string(e.Measurement))
	}
	if !e.From.IsZero() {
		where, args = append(where, "r.t >= ?"), append(args, e.From.Unix())
	}
	if !e.To.IsZero() {
		where, args = append(where, "r.t < ?"), append(args, e.To.Unix())
	}
	return strings.Join(where, " AND "), args
}

// exportEncoder returns what writes a row to bw in format, and what ends
// the output; the CSV header is written at once.
func exportEncoder(bw *bufio.Writer, format string) (out func(exportRow) error, finish func() error, err error) {
	switch format {
	case "", "csv":
		cw := csv.NewWriter(bw)
		if err := cw.Write(ExportHeader); err != nil {
			return nil, nil, err
		}
		out = func(r exportRow) error {
			return cw.Write([]string{r.Time, r.Zone, string(r.Measurement), strconv.FormatFloat(r.Value, 'f', -1, 64), r.Source})
		}
		finish = func() error { cw.Flush(); return cw.Error() }
	case "json":
		enc := json.NewEncoder(bw)
		first := true
		bw.WriteString("[\n")
		out = func(r exportRow) error {
			if !first {
				bw.WriteString(",")
			}
			first = false
			return enc.Encode(r)
		}
		finish = func() error { _, err := bw.WriteString("]\n"); return err }
	default:
		return nil, nil, fmt.Errorf("export format %q: want csv or json", format)
	}
	return out, finish, nil
}

// exportRows passes each row of rows to out as an exportRow, calls
// progress every progressEvery rows, and returns how many it passed.
func exportRows(rows *sql.Rows, out func(exportRow) error, progress func(int64)) (int64, error) {
	var n int64
	for rows.Next() {
		var r exportRow
		var t int64
		var v float64
		if err := rows.Scan(&r.Zone, &r.Measurement, &r.Source, &t, &v); err != nil {
			return n, fmt.Errorf("export: %w", err)
		}
		r.Time = time.Unix(t, 0).UTC().Format(time.RFC3339)
		r.Value = exportValue(r.Measurement, decode(r.Measurement, v))
		if err := out(r); err != nil {
			return n, fmt.Errorf("export: %w", err)
		}
		if n++; progress != nil && n%progressEvery == 0 {
			progress(n)
		}
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	return n, nil
}
