package history

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Retention runs in the writer goroutine between flushes, in steps that
// each delete a bounded slice of one series, and stops for the tick once
// pruneBudget is spent, so a large backlog (after an import, or a long
// retention made shorter) drains over many ticks without delaying writes.
const (
	pruneBudget = 50 * time.Millisecond
	pruneEvery  = time.Minute
)

type pruneTarget struct {
	table     string
	retention time.Duration
	chunk     int64 // seconds deleted per step
}

// prune deletes raw readings and 5-minute buckets past their retention. It
// returns whether it finished (nothing older than the retention is left).
func (w *writer) prune(ctx context.Context, now time.Time) (bool, error) {
	deadline := time.Now().Add(pruneBudget)
	targets := []pruneTarget{{"raw", w.opts.RawRetention, 6 * 3600}}
	for _, r := range rollupTiers {
		if r.retention != nil {
			targets = append(targets, pruneTarget{r.table, r.retention(w.opts), r.pruneChunk})
		}
	}
	ids := slices.Collect(maps.Keys(w.keysByID()))
	done := true
	for _, tg := range targets {
		cutoff := now.Add(-tg.retention).Unix()
		for _, id := range ids {
			deleted, late, err := w.pruneSeries(ctx, tg, id, cutoff, deadline)
			if err != nil || late {
				return false, err
			}
			if deleted {
				done = false
			}
		}
	}
	return done || time.Now().Before(deadline), nil
}

// pruneSeries deletes the rows of series id in tg's table from before
// cutoff, a chunk at a time, until none is left or the deadline has
// passed. It returns whether it deleted any, and whether it stopped for
// the deadline.
func (w *writer) pruneSeries(ctx context.Context, tg pruneTarget, id, cutoff int64, deadline time.Time) (deleted, late bool, err error) {
	for {
		var oldest *int64
		if err := w.db.QueryRowContext(ctx, fmt.Sprintf("SELECT min(t) FROM %s WHERE series = ?", tg.table), id).Scan(&oldest); err != nil {
			return deleted, false, fmt.Errorf("prune %s: %w", tg.table, err)
		}
		if oldest == nil || *oldest >= cutoff {
			return deleted, false, nil
		}
		if time.Now().After(deadline) {
			return deleted, true, nil
		}
		deleted = true
		if _, err := w.db.ExecContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE series = ? AND t < ?", tg.table), id, min(cutoff, *oldest+tg.chunk)); err != nil {
			return deleted, false, fmt.Errorf("prune %s: %w", tg.table, err)
		}
	}
}
