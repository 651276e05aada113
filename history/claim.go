package history

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/climated/climated/sensors"
)

// claimed is what claim made of a reading's series.
type claimed int

const (
	kept    claimed = iota // the reading is written, the series as it was
	skipped                // the reading is not written
	taken                  // the reading is written, the series emptied first
)

// claim applies sensors.Claim as r's source takes a series from cur: a
// simulated reading of a measured series is skipped; the simulated
// readings of a series a measured one takes are deleted from every tier.
func claim(ctx context.Context, tx *sql.Tx, id int64, cur string, r sensors.Reading) (claimed, error) {
	skip, reset := sensors.Claim(cur, r.Source)
	switch {
	case skip:
		return skipped, nil
	case !reset:
		return kept, nil
	}
	for _, ft := range forgetTables {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+ft.table+" WHERE series = ?", id); err != nil {
			return kept, fmt.Errorf("%s/%s is measured now: delete its simulated readings from %s: %w", r.Zone, r.Measurement, ft.table, err)
		}
	}
	if err := countReset(ctx, tx, id); err != nil {
		return kept, fmt.Errorf("%s/%s is measured now: %w", r.Zone, r.Measurement, err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM day_summary WHERE zone = ?", r.Zone); err != nil {
		return kept, fmt.Errorf("%s/%s is measured now: delete its kept days: %w", r.Zone, r.Measurement, err)
	}
	return taken, nil
}

// countReset counts, within tx, that series id was emptied (series.resets):
// what other parts keep per series starts again by their triggers on it
// (remote write's running totals), so the next source's counter counts
// from its own readings.
func countReset(ctx context.Context, tx *sql.Tx, id int64) error {
	if _, err := tx.ExecContext(ctx, "UPDATE series SET resets = resets + 1 WHERE id = ?", id); err != nil {
		return fmt.Errorf("count its reset: %w", err)
	}
	return nil
}
