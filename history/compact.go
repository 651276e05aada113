package history

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/climated/climated/sensors"
)

// rawView is the raw tier as readers see it: the compacted readings and
// those still in the recent table.
const rawView = "(SELECT series, t, v FROM raw UNION ALL SELECT series, t, v FROM recent)"

// compactEvery is the width of what a compaction moves: whole hours.
const compactEvery = time.Hour

// compact moves the readings of the oldest complete hour in recent into
// raw and the rollups, in one transaction; a backlog (a backfilled day, a
// long outage) drains an hour a tick, so neither memory nor a transaction
// grows with it. It does nothing while recent holds no reading from before
// the current hour.
// With all, it moves every complete hour before it returns.
func (w *writer) compact(ctx context.Context, now time.Time, all bool) error {
	for {
		more, err := w.compactHour(ctx, now)
		if err != nil || !more || !all {
			return err
		}
	}
}

// compactHour moves the readings of the oldest complete hour in recent,
// and returns whether another complete hour waits there.
func (w *writer) compactHour(ctx context.Context, now time.Time) (bool, error) {
	current := now.Truncate(compactEvery).Unix()
	var oldest *int64
	if err := w.db.QueryRowContext(ctx, "SELECT min(t) FROM recent").Scan(&oldest); err != nil {
		return false, fmt.Errorf("compact: %w", err)
	}
	if oldest == nil || *oldest >= current {
		return false, nil
	}
	cutoff := min(current, *oldest-*oldest%int64(compactEvery/time.Second)+int64(compactEvery/time.Second))
	keys := w.keysByID()
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("compact: begin: %w", err)
	}
	defer tx.Rollback()
	raw, err := recentBefore(ctx, tx, cutoff)
	if err != nil {
		return false, fmt.Errorf("compact: %w", err)
	}
	rs, err := w.recentReadings(ctx, tx, keys, raw, cutoff)
	if err != nil {
		return false, fmt.Errorf("compact: %w", err)
	}
	tw := newTxState()
	if err := w.writeTx(ctx, tx, tw, rs); err != nil {
		return false, fmt.Errorf("compact: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM recent WHERE t < ?", cutoff); err != nil {
		return false, fmt.Errorf("compact: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("compact: commit: %w", err)
	}
	w.adopt(tw)
	return cutoff < current, nil
}

// recentRow is a row of the recent table, its value as stored.
type recentRow struct{ t, id, v int64 }

// recentBefore reads the rows of recent from before cutoff, by series and
// time.
func recentBefore(ctx context.Context, tx *sql.Tx, cutoff int64) ([]recentRow, error) {
	rows, err := tx.QueryContext(ctx, "SELECT t, series, v FROM recent WHERE t < ? ORDER BY series, t", cutoff)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var raw []recentRow
	for rows.Next() {
		var r recentRow
		if err := rows.Scan(&r.t, &r.id, &r.v); err != nil {
			return nil, err
		}
		raw = append(raw, r)
	}
	return raw, rows.Err()
}

// recentReadings turns the rows of recent into readings, keys naming
// their series. The rows of a series the writer does not know make it read
// the series again once; those of no series are dropped and logged.
func (w *writer) recentReadings(ctx context.Context, tx *sql.Tx, keys map[int64]seriesKey, raw []recentRow, cutoff int64) ([]sensors.Reading, error) {
	rs := make([]sensors.Reading, 0, len(raw))
	reloaded, orphans := false, 0
	for _, r := range raw {
		k, ok := keys[r.id]
		if !ok && !reloaded {
			// A series another process created: read the series again.
			if err := w.loadSeries(ctx, tx); err != nil {
				return nil, err
			}
			keys, reloaded = w.keysByID(), true
			k, ok = keys[r.id]
		}
		if !ok {
			orphans++ // no query can reach it: it must not hold up the rest
			continue
		}
		rs = append(rs, sensors.Reading{Zone: k.zone, Measurement: k.m, Value: decode(k.m, float64(r.v)), Time: time.Unix(r.t, 0)})
	}
	if orphans > 0 {
		w.log.Error("compact: dropping recent readings of no series", "count", orphans, "before", time.Unix(cutoff, 0).UTC().Format(time.RFC3339))
	}
	return rs, nil
}

func (w *writer) keysByID() map[int64]seriesKey {
	w.idsMu.Lock()
	defer w.idsMu.Unlock()
	out := make(map[int64]seriesKey, len(w.ids))
	for k, id := range w.ids {
		out[id] = k
	}
	return out
}
