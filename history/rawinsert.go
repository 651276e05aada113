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
// (times in fractions of a second; txState.amountAgain).
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
