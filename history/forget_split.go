package history

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/climated/climated/sensors"
)

// split is a bucket that straddles the time, with what rebuilds it: the
// raw readings of the bucket at or before the time, as stored.
type split struct {
	SplitBucket
	id, start, gone int64 // gone: its raw readings after the time
	after           int64 // the time
	sum, low, high  sql.NullFloat64
	scale           float64
}

// splitBuckets finds, in each rollup tier, the buckets that begin at or
// before `after` and hold readings stamped after it, and adds them to
// rep. A bucket can be rebuilt when raw holds all of its readings: raw
// reaches back to the bucket's start, or holds as many readings as the
// bucket counts.
func splitBuckets(ctx context.Context, tx *sql.Tx, names map[int64]seriesRow, after int64, rep *ForgetReport) ([]split, error) {
	var out []split
	for _, tier := range rollupTiers {
		width := int64(tier.width / time.Second)
		start := after - after%width
		if after-start == width-1 {
			continue // the bucket ends at the time: all of it stays
		}
		found, err := straddling(ctx, tx, tier.table, start, after, start+width)
		if err != nil {
			return nil, fmt.Errorf("forget: read %s: %w", tier.table, err)
		}
		for i := range found {
			found[i].Zone, found[i].Measurement = seriesName(names, found[i].id)
		}
		slices.SortFunc(found, func(a, b split) int {
			return cmp.Or(cmp.Compare(a.Zone, b.Zone), cmp.Compare(a.Measurement, b.Measurement))
		})
		for _, sp := range found {
			sp.Table, sp.Start = tier.table, time.Unix(start, 0).UTC()
			sp.scale = scaleOf(sp.Measurement)
			if sp.gone == 0 && !sp.Whole {
				continue // nothing in it from after the time
			}
			if sp.Whole {
				sp.Kept = sp.Readings
			}
			out = append(out, sp)
			rep.Split = append(rep.Split, sp.SplitBucket)
		}
	}
	return out, nil
}

// straddling reads the buckets of table that begin at start, series by
// series, with the raw readings of each: those at or before after, as
// stored, and how many come after it.
func straddling(ctx context.Context, tx *sql.Tx, table string, start, after, end int64) ([]split, error) {
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(`SELECT r.series, r.n, (SELECT min(t) FROM raw WHERE series = r.series),
		count(w.t) FILTER (WHERE w.t <= ?2), sum(w.v) FILTER (WHERE w.t <= ?2),
		min(w.v) FILTER (WHERE w.t <= ?2), max(w.v) FILTER (WHERE w.t <= ?2), count(w.t) FILTER (WHERE w.t > ?2)
		FROM series s CROSS JOIN %s r ON r.series = s.id AND r.t = ?1
		LEFT JOIN raw w ON w.series = r.series AND w.t >= ?1 AND w.t < ?3
		GROUP BY r.series`, table), start, after, end)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []split
	for rows.Next() {
		sp := split{start: start, after: after}
		var oldest sql.NullInt64
		if err := rows.Scan(&sp.id, &sp.Readings, &oldest, &sp.Kept, &sp.sum, &sp.low, &sp.high, &sp.gone); err != nil {
			return nil, err
		}
		// Retention deletes raw readings from the oldest on: raw holds
		// all of the bucket if it reaches back to its start, or if the
		// counts agree (a series that began inside the bucket).
		sp.Whole = !(oldest.Valid && oldest.Int64 <= start || sp.Kept+sp.gone == sp.Readings)
		out = append(out, sp)
	}
	return out, rows.Err()
}

// rebuild puts into each split bucket what it keeps: the aggregate of its
// raw readings at or before the time, or nothing when it keeps none; a
// bucket kept whole is left as it is.
func rebuild(ctx context.Context, tx *sql.Tx, splits []split) error {
	for _, sp := range splits {
		var err error
		switch {
		case sp.Whole:
			continue
		case sp.Kept == 0:
			_, err = tx.ExecContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE series = ? AND t = ?", sp.Table), sp.id, sp.start)
		default:
			_, err = tx.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET n = ?, total = ?, lo = ?, hi = ? WHERE series = ? AND t = ?", sp.Table),
				sp.Kept, sp.sum.Float64/sp.scale, sp.low.Float64/sp.scale, sp.high.Float64/sp.scale, sp.id, sp.start)
			if info, _ := sensors.Lookup(sp.Measurement); err == nil && info.Kind == sensors.Direction {
				// A direction's vector sums, from the same raw readings.
				_, err = tx.ExecContext(ctx, fmt.Sprintf(`UPDATE %s SET (cs, sn) = (SELECT sum(cos(radians(v / ?1))), sum(sin(radians(v / ?1)))
					FROM raw WHERE series = ?2 AND t >= ?3 AND t <= ?4) WHERE series = ?2 AND t = ?3`, sp.Table), sp.scale, sp.id, sp.start, sp.after)
			}
		}
		if err != nil {
			return fmt.Errorf("forget: rebuild the %s bucket of %s/%s at %d: %w", sp.Table, sp.Zone, sp.Measurement, sp.start, err)
		}
	}
	return nil
}
