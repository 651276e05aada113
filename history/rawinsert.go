package history

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/climated/climated/sensors"
)

// amounts says what an amount (rain) at an instant the raw tier holds
// does to it: compaction adds it (the tips of one second come as
// readings of their own), an import replaces what the history held
// before it (a file holds each instant's total, and importing it again
// changes nothing) and adds up the tips of one second within its file
// (times in fractions of a second; amountsAt).
type amounts int

const (
	addAmounts amounts = iota
	replaceAmounts
)

// insertRaw writes r, its value v as stored, into the raw tier. first is
// false when it replaced a value of the same instant, which the rollups
// hold already (they keep the first). Without an amount statement, an
// amount replaces as a gauge does (replaceAmounts).
func (w *writer) insertRaw(ctx context.Context, tx *sql.Tx, gauge, amount *sql.Stmt, id int64, r sensors.Reading, v int64) (first bool, err error) {
	t := r.Time.Unix()
	if info, _ := sensors.Lookup(r.Measurement); info.Kind == sensors.Amount && amount != nil {
		if _, err := amount.ExecContext(ctx, id, t, v); err != nil {
			return false, fmt.Errorf("insert %s/%s at %d: %w", r.Zone, r.Measurement, t, err)
		}
		return true, nil
	}
	res, err := gauge.ExecContext(ctx, id, t, v)
	if err != nil {
		return false, fmt.Errorf("insert %s/%s at %d: %w", r.Zone, r.Measurement, t, err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return true, nil
	}
	if _, err := tx.Stmt(w.stmts.regauge).ExecContext(ctx, v, id, t); err != nil {
		return false, fmt.Errorf("replace %s/%s at %d: %w", r.Zone, r.Measurement, t, err)
	}
	return false, nil
}

// amountsAt are the instants of amounts (rain) one writeTx wrote, per
// series: a second amount at one of them is a tip of the same second,
// added to the first, where an amount the history held before is
// replaced (replaceAmounts). It lives for one call, a chunk of an import
// (importChunk readings at most), so it holds at most that many.
type amountsAt map[bucketKey]bool

// again records an amount of series id at t, and reports whether one was
// written there before.
func (a amountsAt) again(id, t int64) bool {
	k := bucketKey{id, t}
	was := a[k]
	a[k] = true
	return was
}
