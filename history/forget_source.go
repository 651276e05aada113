package history

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/climated/climated/sensors"
)

// SourceReport is what Store.ForgetSource deleted: the series whose
// latest source began with the prefix, and their readings.
type SourceReport struct {
	Series   []SeriesName
	Readings int64 // raw and recent readings deleted
}

// SeriesName is a series by its zone and measurement.
type SeriesName struct {
	Zone        string
	Measurement sensors.Measurement
}

// Zones are the report's zones, each once, in the order of its series.
func (r SourceReport) Zones() []string {
	var zs []string
	for _, s := range r.Series {
		if len(zs) == 0 || zs[len(zs)-1] != s.Zone {
			zs = append(zs, s.Zone)
		}
	}
	return zs
}

// ForgetSource deletes every reading, from every tier, of the series
// whose source begins with prefix, case and all, as sensors.Simulated
// tells the demo house's ("demo/"): for a
// source that has stopped, whose readings must not be shown as the
// house's. The series rows stay (the writer knows them by id) and take
// the next source that records them. It runs in one transaction, after
// what the writer holds is committed; the caller makes sure no source
// records meanwhile (at start-up, before the sources run).
func (s *Store) ForgetSource(ctx context.Context, prefix string) (SourceReport, error) {
	var rep SourceReport
	if s.readOnly {
		return rep, ErrReadOnly
	}
	if prefix == "" || strings.ContainsAny(prefix, `%_\`) {
		return rep, fmt.Errorf("forget source: prefix %q: want a plain source name such as demo/", prefix)
	}
	if err := s.Flush(ctx); err != nil {
		return rep, fmt.Errorf("forget source: commit first: %w", err)
	}
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return rep, fmt.Errorf("forget source: begin: %w", err)
	}
	defer tx.Rollback()
	ids, names, err := sourceSeries(ctx, tx, prefix)
	if err != nil {
		return rep, err
	}
	rep.Series = names
	for _, id := range ids {
		n, err := forgetSeries(ctx, tx, id)
		if err != nil {
			return rep, fmt.Errorf("forget source: %w", err)
		}
		rep.Readings += n
	}
	for _, z := range rep.Zones() {
		if _, err := tx.ExecContext(ctx, "DELETE FROM day_summary WHERE zone = ?", z); err != nil {
			return rep, fmt.Errorf("forget source: delete the kept days of %s: %w", z, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return rep, fmt.Errorf("forget source: commit: %w", err)
	}
	s.w.days.stale.Store(true)
	return rep, nil
}

// forgetSeries deletes, within tx, every reading of series id from every
// tier and counts its reset (countReset); n counts the raw and
// recent readings deleted.
func forgetSeries(ctx context.Context, tx *sql.Tx, id int64) (n int64, err error) {
	for _, ft := range forgetTables {
		res, err := tx.ExecContext(ctx, "DELETE FROM "+ft.table+" WHERE series = ?", id)
		if err != nil {
			return n, fmt.Errorf("delete from %s: %w", ft.table, err)
		}
		if k, _ := res.RowsAffected(); ft.table == "raw" || ft.table == "recent" {
			n += k
		}
	}
	return n, countReset(ctx, tx, id)
}

// sourceSeries are the ids and names of the series whose source begins
// with prefix, by zone and measurement. It compares as sensors.Simulated
// does (strings.HasPrefix), byte for byte: SQLite's LIKE ignores ASCII
// case, and would take a "DEMO/…" series that the claim calls measured
// for the demo's.
func sourceSeries(ctx context.Context, tx *sql.Tx, prefix string) ([]int64, []SeriesName, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, zone, measurement, source FROM series ORDER BY zone, measurement`)
	if err != nil {
		return nil, nil, fmt.Errorf("forget source: read series: %w", err)
	}
	defer rows.Close()
	var ids []int64
	var names []SeriesName
	for rows.Next() {
		var id int64
		var n SeriesName
		var src string
		if err := rows.Scan(&id, &n.Zone, &n.Measurement, &src); err != nil {
			return nil, nil, fmt.Errorf("forget source: read series: %w", err)
		}
		if strings.HasPrefix(src, prefix) {
			ids, names = append(ids, id), append(names, n)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("forget source: read series: %w", err)
	}
	return ids, names, nil
}
