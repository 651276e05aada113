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

// rawView is the raw tier as readers see it: the compacted readings and
// those still in the recent table.
const rawView = "(SELECT series, t, v FROM raw UNION ALL SELECT series, t, v FROM recent)"

// compactRows bounds a compaction step: one transaction moves at most
// this many readings of recent, so neither the writer goroutine nor the
// database's write lock is held for long whatever the backlog (a median of
// 70 ms a step on a 2-core amd64 server, BenchmarkYearBacklog); the pace
// (compactpace.go) takes fewer where they take longer. The writer takes a
// step a tick, so a backlog drains in proportion to its readings, not its
// hours: a year of 5-minute readings of 12 series in 127 ticks at full
// pace, where an hour a tick took 8,760.
const compactRows = 50_000

// compactAge is how old the oldest reading of recent gets before the
// writer moves recent on: every compaction writes the last page of every
// series in raw and in both rollups (and the checkpoint writes them again),
// whatever it moves, so moving hours at a time rather than one costs the
// SD card a fraction of the bytes (scripts/sdwrites.sh). Readers see
// recent and raw together (rawView), so nothing waits for it but the
// size of recent: six hours of 80 series at a reading a minute are 29,000
// rows.
const compactAge = 6 * time.Hour

// compactDue says whether the writer's tick takes a compaction step: once
// the oldest reading of recent is compactAge old, and then at every tick
// until a step finds nothing more to move.
func (w *writer) compactDue(ctx context.Context, now time.Time) (bool, error) {
	if w.compacting {
		return true, nil
	}
	var oldest sql.NullInt64
	if err := w.db.QueryRowContext(ctx, "SELECT min(t) FROM recent").Scan(&oldest); err != nil {
		return false, wrapCompact(err)
	}
	return oldest.Valid && oldest.Int64 <= now.Add(-compactAge).Unix(), nil
}

// compact moves the readings of recent from before the current hour into
// raw and the rollups, oldest first, one step of at most compactRows
// readings. With all, it takes steps until none is left.
func (w *writer) compact(ctx context.Context, now time.Time, all bool) error {
	for {
		more, err := w.compactStep(ctx, now)
		if err != nil || !more || !all {
			return err
		}
	}
}

// Compact moves every reading of recent from before the current hour into
// raw and the rollups, in transactions of at most compactRows readings,
// and returns once none is left. It is for commands that run while the
// hub does not (climated import): the hub's writer takes a step a tick.
func (s *Store) Compact(ctx context.Context) error {
	if s.readOnly {
		return ErrReadOnly
	}
	return s.w.compact(ctx, s.opts.Now(), true)
}

// compactStep moves, in one transaction, the oldest readings of recent from
// before the current hour, at most compactRows of them, and returns
// whether more may wait. A step may end inside an hour or a bucket: the
// rollups add what the next step moves to what this one did.
func (w *writer) compactStep(ctx context.Context, now time.Time) (bool, error) {
	current := now.Truncate(time.Hour).Unix()
	// Most ticks find nothing to move: they must not take the write lock.
	var waiting bool
	if err := w.db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM recent WHERE t < ?)", current).Scan(&waiting); err != nil || !waiting {
		return false, wrapCompact(err)
	}
	keys := w.keysByID()
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("compact: begin: %w", err)
	}
	defer tx.Rollback()
	// The lock is held from here: BEGIN IMMEDIATE has taken it.
	start, limit := time.Now(), w.pace.next()
	raw, err := oldestRecent(ctx, tx, current, limit)
	if err != nil || len(raw) == 0 {
		return false, wrapCompact(err)
	}
	last := raw[len(raw)-1]
	// raw clusters by series: writing series by series touches each of
	// its pages once.
	slices.SortFunc(raw, func(a, b recentRow) int { return cmp.Or(cmp.Compare(a.id, b.id), cmp.Compare(a.t, b.t)) })
	rs, err := w.recentReadings(ctx, tx, keys, raw, current)
	if err != nil {
		return false, wrapCompact(err)
	}
	tw := newTxState()
	if err := w.writeTx(ctx, tx, tw, rs, addAmounts); err != nil {
		return false, wrapCompact(err)
	}
	// Exactly the rows read: those up to the last one in (t, series) order.
	if _, err := tx.ExecContext(ctx, "DELETE FROM recent WHERE (t, series) <= (?, ?)", last.t, last.id); err != nil {
		return false, wrapCompact(err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("compact: commit: %w", err)
	}
	w.adopt(tw)
	w.pace.took(len(raw), time.Since(start))
	w.saySummarised(tw.summarised)
	return len(raw) == limit, nil
}

func wrapCompact(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("compact: %w", err)
}

// recentRow is a row of the recent table, its value as stored.
type recentRow struct{ t, id, v int64 }

// oldestRecent reads the oldest rows of recent from before cutoff, at
// most limit of them, in (t, series) order: the table's key, so the read
// stops after limit rows however large the backlog.
func oldestRecent(ctx context.Context, tx *sql.Tx, cutoff int64, limit int) ([]recentRow, error) {
	rows, err := tx.QueryContext(ctx, "SELECT t, series, v FROM recent WHERE t < ? ORDER BY t, series LIMIT ?", cutoff, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	raw := make([]recentRow, 0, limit)
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
