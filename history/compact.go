package history

import (
	"context"
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
	rows, err := tx.QueryContext(ctx, "SELECT t, series, v FROM recent WHERE t < ? ORDER BY series, t", cutoff)
	if err != nil {
		return false, fmt.Errorf("compact: %w", err)
	}
	var rs []sensors.Reading
	for rows.Next() {
		var t, id int64
		var v float64
		if err := rows.Scan(&t, &id, &v); err != nil {
			rows.Close()
			return false, fmt.Errorf("compact: %w", err)
		}
		k, ok := keys[id]
		if !ok {
			rows.Close()
			return false, fmt.Errorf("compact: recent reading of unknown series %d", id)
		}
		rs = append(rs, sensors.Reading{Zone: k.zone, Measurement: k.m, Value: decode(k.m, v), Time: time.Unix(t, 0)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
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

func (w *writer) keysByID() map[int64]seriesKey {
	w.idsMu.Lock()
	defer w.idsMu.Unlock()
	out := make(map[int64]seriesKey, len(w.ids))
	for k, id := range w.ids {
		out[id] = k
	}
	return out
}
