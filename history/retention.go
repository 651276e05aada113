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
	// whole is the width of the next tier's buckets, in seconds: a step
	// deletes whole ones of them, so that the rows of a bucket are all
	// kept or all gone (summarised.go).
	whole int64
}

// prune deletes raw readings and 5-minute buckets past their retention. It
// returns whether it finished (nothing older than the retention is left).
func (w *writer) prune(ctx context.Context, now time.Time) (bool, error) {
	deadline := time.Now().Add(pruneBudget)
	targets := []pruneTarget{{"raw", w.opts.RawRetention, 6 * 3600, int64(rollupTiers[0].width / time.Second)}}
	for i, r := range rollupTiers[:len(rollupTiers)-1] {
		if r.retention != nil {
			targets = append(targets, pruneTarget{r.table, r.retention(w.opts), r.pruneChunk, int64(rollupTiers[i+1].width / time.Second)})
		}
	}
	ids := slices.Collect(maps.Keys(w.keysByID()))
	// Readings compaction has still to move may fall into buckets a step
	// of it has begun: those buckets are kept whole until it has moved
	// them, or their rest would be left out as summarised already.
	var waiting *int64
	if err := w.db.QueryRowContext(ctx, "SELECT min(t) FROM recent").Scan(&waiting); err != nil {
		return false, fmt.Errorf("prune: %w", err)
	}
	done := true
	for _, tg := range targets {
		cutoff := floorTo(now.Add(-tg.retention).Unix(), tg.whole)
		if waiting != nil {
			cutoff = min(cutoff, floorTo(*waiting, tg.whole))
		}
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
		// A step ends on a whole bucket past the oldest's, never before it.
		end := min(cutoff, floorTo(*oldest, tg.whole)+max(tg.chunk-tg.chunk%tg.whole, tg.whole))
		if _, err := w.db.ExecContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE series = ? AND t < ?", tg.table), id, end); err != nil {
			return deleted, false, fmt.Errorf("prune %s: %w", tg.table, err)
		}
	}
}

// floorTo is t rounded down to a multiple of width (negative times too).
func floorTo(t, width int64) int64 {
	r := t % width
	if r < 0 {
		r += width
	}
	return t - r
}
