package history

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// ForgetReport is what Store.Forget deletes, or would delete without
// apply: the readings stamped after a time, table by table and series by
// series, and the rollup buckets that straddle the time.
type ForgetReport struct {
	After   time.Time
	Applied bool          // the rows are deleted; false: a dry run, nothing changed
	Rows    []ForgetRows  // in the order raw, recent, rollup_5m, rollup_1h, rollup_1d, then by zone and measurement
	Split   []SplitBucket // buckets that begin at or before After and end after it
}

// ForgetRows are the rows of one table and series stamped after the time.
type ForgetRows struct {
	Table       string // raw, recent or a rollup tier (rollup_5m, rollup_1h, rollup_1d)
	Zone        string
	Measurement sensors.Measurement
	Rows        int64     // readings, or buckets of a rollup
	Readings    int64     // the readings they hold (Rows for raw and recent)
	First, Last time.Time // the earliest and the latest (a bucket's start)
}

// SplitBucket is a rollup bucket that straddles the time: it begins at
// or before it and holds readings stamped after it. When the raw tier
// still holds the bucket's readings (it does for the last 30 days by
// default) the bucket is rebuilt from those at or before the time, and
// deleted if there are none; otherwise it is kept whole (Whole), since
// what it holds from before the time cannot be told apart from the rest.
type SplitBucket struct {
	Table       string // rollup_5m, rollup_1h or rollup_1d
	Zone        string
	Measurement sensors.Measurement
	Start       time.Time
	Readings    int64 // the readings it holds
	Kept        int64 // those it keeps: the readings at or before the time, or all when Whole
	Whole       bool
}

// Readings is how many readings the report deletes from the raw and
// recent tables: the readings themselves, not their summaries.
func (r ForgetReport) Readings() int64 {
	var n int64
	for _, f := range r.Rows {
		if f.Table == "raw" || f.Table == "recent" {
			n += f.Rows
		}
	}
	return n
}

// forgetTables are the tables Forget deletes from, in the report's order,
// and how each counts the readings of its rows.
var forgetTables = func() []struct{ table, readings string } {
	out := []struct{ table, readings string }{{"raw", "count(*)"}, {"recent", "count(*)"}}
	for _, r := range rollupTiers {
		out = append(out, struct{ table, readings string }{r.table, "sum(r.n)"})
	}
	return out
}()

// Forget deletes the readings stamped after `after` from every tier: raw
// and recent readings, the rollup buckets that begin after it, and what a
// bucket that straddles it holds from after it (SplitBucket). Everything
// stamped at or before `after` stays as it was. Without apply it deletes
// nothing and reports what it would. It is for commands that run while
// the hub does not (climated forget): the caller holds the database's
// lock (Open), and it runs in one transaction.
func (s *Store) Forget(ctx context.Context, after time.Time, apply bool) (ForgetReport, error) {
	rep := ForgetReport{After: after}
	if s.readOnly {
		return rep, ErrReadOnly
	}
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return rep, fmt.Errorf("forget: begin: %w", err)
	}
	defer tx.Rollback()
	names, err := readSeries(ctx, tx)
	if err != nil {
		return rep, fmt.Errorf("forget: read series: %w", err)
	}
	ids, err := forgetRows(ctx, tx, names, after.Unix(), &rep)
	if err != nil {
		return rep, err
	}
	splits, err := splitBuckets(ctx, tx, names, after.Unix(), &rep)
	if err != nil || !apply {
		return rep, err
	}
	if err := deleteAfter(ctx, tx, ids, after.Unix()); err != nil {
		return rep, err
	}
	if err := rebuild(ctx, tx, splits); err != nil {
		return rep, err
	}
	// Every kept day from the one that holds after on is summarised again
	// (a local day can last 26 hours: Antarctica/Troll's in October).
	if _, err := tx.ExecContext(ctx, "DELETE FROM day_summary WHERE day >= ?", climate.LocalMidnight(after, s.opts.Location).Unix()); err != nil {
		return rep, fmt.Errorf("forget: delete the kept days: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return rep, fmt.Errorf("forget: commit: %w", err)
	}
	s.w.days.stale.Store(true)
	rep.Applied = true
	return rep, nil
}

// forgetRows adds to rep the rows of every table stamped after `after`,
// per series, and returns the series each table has them in. Each
// series' primary key finds its rows (recent's key begins with the time).
func forgetRows(ctx context.Context, tx *sql.Tx, names map[int64]seriesRow, after int64, rep *ForgetReport) (map[string][]int64, error) {
	ids := map[string][]int64{}
	for _, ft := range forgetTables {
		q := fmt.Sprintf(`SELECT r.series, count(*), %s, min(r.t), max(r.t) FROM series s CROSS JOIN %s r ON r.series = s.id AND r.t > ? GROUP BY r.series`, ft.readings, ft.table)
		if ft.table == "recent" { // its orphans too: they go with the rest
			q = `SELECT r.series, count(*), count(*), min(r.t), max(r.t) FROM recent r WHERE r.t > ? GROUP BY r.series`
		}
		rows, err := tx.QueryContext(ctx, q, after)
		if err != nil {
			return nil, fmt.Errorf("forget: read %s: %w", ft.table, err)
		}
		var found []ForgetRows
		for rows.Next() {
			var id, first, last int64
			f := ForgetRows{Table: ft.table}
			if err := rows.Scan(&id, &f.Rows, &f.Readings, &first, &last); err != nil {
				rows.Close()
				return nil, fmt.Errorf("forget: read %s: %w", ft.table, err)
			}
			f.Zone, f.Measurement = seriesName(names, id)
			f.First, f.Last = time.Unix(first, 0).UTC(), time.Unix(last, 0).UTC()
			found = append(found, f)
			ids[ft.table] = append(ids[ft.table], id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("forget: read %s: %w", ft.table, err)
		}
		slices.SortFunc(found, func(a, b ForgetRows) int {
			return cmp.Or(cmp.Compare(a.Zone, b.Zone), cmp.Compare(a.Measurement, b.Measurement))
		})
		rep.Rows = append(rep.Rows, found...)
	}
	return ids, nil
}

// seriesName is the zone and measurement of series id; a row of no
// series (a reading left in recent by a series since deleted) is named by
// its number.
func seriesName(names map[int64]seriesRow, id int64) (string, sensors.Measurement) {
	if r, ok := names[id]; ok {
		return r.key.zone, r.key.m
	}
	return fmt.Sprintf("(series %d)", id), ""
}

// deleteAfter deletes the rows stamped after `after`: series by series
// where the table clusters by series, by time from recent.
func deleteAfter(ctx context.Context, tx *sql.Tx, ids map[string][]int64, after int64) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM recent WHERE t > ?", after); err != nil {
		return fmt.Errorf("forget: delete from recent: %w", err)
	}
	for _, ft := range forgetTables {
		table := ft.table
		if table == "recent" {
			continue // by time, above
		}
		for _, id := range ids[table] {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE series = ? AND t > ?", table), id, after); err != nil {
				return fmt.Errorf("forget: delete from %s: %w", table, err)
			}
		}
	}
	return nil
}
