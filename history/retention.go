package history

import (
	"context"
	"fmt"
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
	targets := []pruneTarget{
		{"raw", w.opts.RawRetention, 6 * 3600},
		{"rollup_5m", w.opts.RollupRetention, 7 * 86400},
	}
	w.idsMu.Lock()
	ids := make([]int64, 0, len(w.ids))
	for _, id := range w.ids {
		ids = append(ids, id)
	}
	w.idsMu.Unlock()
	done := true
	for _, tg := range targets {
		cutoff := now.Add(-tg.retention).Unix()
		for _, id := range ids {
			for {
				var oldest *int64
				if err := w.db.QueryRowContext(ctx, fmt.Sprintf("SELECT min(t) FROM %s WHERE series = ?", tg.table), id).Scan(&oldest); err != nil {
					return false, fmt.Errorf("prune %s: %w", tg.table, err)
				}
				if oldest == nil || *oldest >= cutoff {
					break
				}
				if time.Now().After(deadline) {
					return false, nil
				}
				done = false
				if _, err := w.db.ExecContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE series = ? AND t < ?", tg.table), id, min(cutoff, *oldest+tg.chunk)); err != nil {
					return false, fmt.Errorf("prune %s: %w", tg.table, err)
				}
			}
		}
	}
	return done || time.Now().Before(deadline), nil
}
