package history

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/climated/climated/sensors"
)

// writeRows writes rs a row at a time, each under a savepoint, after their
// batch failed for some row's own sake: a row the database refuses is
// rolled back alone, dropped and logged, and the others are committed. An
// error that is not about a row (busy, full, I/O) aborts it all, and the
// batch waits for a later retry.
func (w *writer) writeRows(rs []sensors.Reading, n notes) (int, error) {
	ctx := context.Background()
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	tw := newTxState()
	type refusal struct {
		r   sensors.Reading
		err error
	}
	var refused []refusal
	for _, r := range rs {
		err := w.writeRow(ctx, tx, tw, r)
		if err == nil {
			continue
		}
		if !rowFault(err) {
			return 0, err
		}
		refused = append(refused, refusal{r, err})
	}
	if err := w.writeNotes(ctx, tx, n); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	w.adopt(tw)
	for _, f := range refused {
		w.refused(f.r, f.err)
	}
	return len(rs) - len(refused), nil
}

// writeRow writes r under a savepoint of its own and undoes all of it,
// a series it created included, when the database refuses it.
func (w *writer) writeRow(ctx context.Context, tx *sql.Tx, tw *txState, r sensors.Reading) error {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT reading"); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	rt := tw.child()
	err := w.writeRecent(ctx, tx, rt, []sensors.Reading{r})
	if err == nil {
		rt.release()
		if _, err := tx.ExecContext(ctx, "RELEASE reading"); err != nil {
			return fmt.Errorf("release savepoint: %w", err)
		}
		return nil
	}
	// ROLLBACK TO leaves the savepoint open; RELEASE closes it.
	for _, q := range []string{"ROLLBACK TO reading", "RELEASE reading"} {
		if _, rbErr := tx.ExecContext(ctx, q); rbErr != nil {
			return fmt.Errorf("roll back a refused reading (%v): %w", err, rbErr)
		}
	}
	return err
}

// refused logs a reading the database refused: at most one line per
// series every errLogEvery, with the count since (and a ceiling over all
// series, loglimit).
func (w *writer) refused(r sensors.Reading, err error) {
	w.dropped.Add(1)
	if ok, quiet := w.errLog.Allow("drop\x00"+r.Zone+"\x00"+string(r.Measurement), time.Now()); ok {
		w.log.Error("reading dropped: the database refuses it", "zone", r.Zone, "measurement", string(r.Measurement),
			"time", r.Time.UTC().Format(time.RFC3339), "value", r.Value, "source", r.Source, "err", err, "dropped_unlogged", quiet)
	}
}
