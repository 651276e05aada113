package history

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"
)

func rollupUpsert(table string) string {
	return fmt.Sprintf(`INSERT INTO %[1]s (series, t, n, total, lo, hi, cs, sn) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (series, t) DO UPDATE SET n = %[1]s.n + excluded.n, total = %[1]s.total + excluded.total,
		lo = min(%[1]s.lo, excluded.lo), hi = max(%[1]s.hi, excluded.hi),
		cs = %[1]s.cs + excluded.cs, sn = %[1]s.sn + excluded.sn`, table)
}

// bucket is the aggregate of a batch's readings in one rollup bucket; a
// direction's also the sums of the cosines and sines of its angles (cs,
// sn; NULL for other measurements).
type bucket struct {
	n         int64
	total     float64
	low, high float64
	cs, sn    sql.NullFloat64
}

type bucketKey struct{ series, t int64 }

// rollups gathers a batch's readings per bucket of every tier, so a batch
// touches each bucket once however many readings fall in it (a backfill
// writes a day in a few statements per series).
type rollups []map[bucketKey]*bucket // one map a tier of rollupTiers

func newRollups() *rollups {
	r := make(rollups, len(rollupTiers))
	for i := range r {
		r[i] = map[bucketKey]*bucket{}
	}
	return &r
}

func (r *rollups) add(series, t int64, v float64, direction bool) {
	for i, tier := range rollupTiers {
		w := int64(tier.width / time.Second)
		k := bucketKey{series, t - t%w}
		b := (*r)[i][k]
		if b == nil {
			b = &bucket{total: 0, low: v, high: v}
			(*r)[i][k] = b
		}
		b.n++
		b.total += v
		b.low, b.high = min(b.low, v), max(b.high, v)
		if direction {
			rad := v * math.Pi / 180
			b.cs = sql.NullFloat64{Float64: b.cs.Float64 + math.Cos(rad), Valid: true}
			b.sn = sql.NullFloat64{Float64: b.sn.Float64 + math.Sin(rad), Valid: true}
		}
	}
}

// write upserts the buckets with stmts, one a tier of rollupTiers.
// drop forgets what r holds of series.
func (r *rollups) drop(series int64) {
	for _, tier := range *r {
		for k := range tier {
			if k.series == series {
				delete(tier, k)
			}
		}
	}
}

func (r *rollups) write(ctx context.Context, stmts []*sql.Stmt) error {
	for i, st := range stmts {
		for k, b := range (*r)[i] {
			if _, err := st.ExecContext(ctx, k.series, k.t, b.n, b.total, b.low, b.high, b.cs, b.sn); err != nil {
				return fmt.Errorf("update %s: %w", rollupTiers[i].table, err)
			}
		}
	}
	return nil
}
