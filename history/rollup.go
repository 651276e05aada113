package history

import (
	"context"
	"database/sql"
	"fmt"
)

// The rollup tiers: bucket width in seconds and table.
var tiers = []struct {
	width int64
	table string
}{
	{300, "rollup_5m"},
	{3600, "rollup_1h"},
}

func rollupUpsert(table string) string {
	return fmt.Sprintf(`INSERT INTO %[1]s (series, t, n, total, lo, hi) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (series, t) DO UPDATE SET n = %[1]s.n + excluded.n, total = %[1]s.total + excluded.total,
		lo = min(%[1]s.lo, excluded.lo), hi = max(%[1]s.hi, excluded.hi)`, table)
}

// bucket is the aggregate of a batch's readings in one rollup bucket.
type bucket struct {
	n         int64
	total     float64
	low, high float64
}

type bucketKey struct{ series, t int64 }

// rollups gathers a batch's readings per bucket of every tier, so a batch
// touches each bucket once however many readings fall in it (a backfill
// writes a day in a few statements per series).
type rollups [2]map[bucketKey]*bucket

func newRollups() *rollups { return &rollups{{}, {}} }

func (r *rollups) add(series, t int64, v float64) {
	for i, tier := range tiers {
		k := bucketKey{series, t - t%tier.width}
		b := r[i][k]
		if b == nil {
			r[i][k] = &bucket{n: 1, total: v, low: v, high: v}
			continue
		}
		b.n++
		b.total += v
		b.low, b.high = min(b.low, v), max(b.high, v)
	}
}

func (r *rollups) write(ctx context.Context, stmts ...*sql.Stmt) error {
	for i, st := range stmts {
		for k, b := range r[i] {
			if _, err := st.ExecContext(ctx, k.series, k.t, b.n, b.total, b.low, b.high); err != nil {
				return fmt.Errorf("update %s: %w", tiers[i].table, err)
			}
		}
	}
	return nil
}
