package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/climated/climated/history/climate"
)

// keepChunk is how many days of a zone the keeper summarises at once; a
// step keeps going while it is within its budget.
const keepChunk = 31

// keepBudget bounds the time a writer's tick spends keeping days: a
// year's daily summaries of a weather station and two rooms take about 3 s
// on a 2-core amd64 server, so a new or rebuilt history is kept over a
// few dozen ticks while the writer goes on writing.
const keepBudget = 150 * time.Millisecond

// keepDays summarises, for every zone, the days that have ended, whose
// readings are compacted (keptUntil) and that are not kept yet, oldest
// first, and writes them with db (the writer's connection), until budget
// is spent. It reports whether every such day is kept.
func (s *Store) keepDays(ctx context.Context, db *sql.DB, budget time.Duration) (done bool, err error) {
	deadline := time.Now().Add(budget)
	zs, err := s.zoneSeries(ctx)
	if err != nil {
		return false, err
	}
	for _, z := range zs {
		missing, err := s.missingDays(ctx, z.Name)
		if err != nil {
			return false, err
		}
		for len(missing) > 0 {
			n := min(len(missing), keepChunk)
			if err := s.keepRun(ctx, db, z, missing[:n]); err != nil {
				return false, err
			}
			missing = missing[n:]
			if time.Now().After(deadline) {
				return false, nil
			}
		}
	}
	return true, nil
}

// missingDays are the starts of zone's days, from its first reading's
// to keptUntil, that are not kept.
func (s *Store) missingDays(ctx context.Context, zone string) ([]time.Time, error) {
	var first sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT min(t) FROM (SELECT min(r.t) AS t FROM rollup_1h r JOIN series s ON s.id = r.series WHERE s.zone = ?1
		UNION ALL SELECT min(r.t) FROM recent r JOIN series s ON s.id = r.series WHERE s.zone = ?1)`, zone).Scan(&first)
	if err != nil || !first.Valid {
		return nil, wrapKeep(zone, err)
	}
	until, err := s.keptUntil(ctx, zone)
	if err != nil {
		return nil, err
	}
	loc := s.opts.Location
	from := climate.LocalMidnight(time.Unix(first.Int64, 0), loc)
	kept, err := s.keptDays(ctx, zone, from.Unix(), until.Unix())
	if err != nil {
		return nil, err
	}
	var out []time.Time
	for d := from; d.Before(until); d = nextMidnight(d, loc) {
		if _, ok := kept[d.Unix()]; !ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// keepRun summarises zone's days that start at starts and keeps them,
// those without readings too (as {}), in one transaction. The
// transaction begins first: it holds the write lock while the days are
// read (on the readers' connections, whose snapshots then hold every
// commit), so that no write from another goroutine (an import beside the
// running hub, forget) can commit a reading for a day between its
// summary and its row, which would keep it stale for ever.
func (s *Store) keepRun(ctx context.Context, db *sql.DB, z zoneSeries, starts []time.Time) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return wrapKeep(z.Name, err)
	}
	defer tx.Rollback()
	days, err := s.liveDays(ctx, z, starts)
	if err != nil {
		return wrapKeep(z.Name, err)
	}
	st, err := tx.PrepareContext(ctx, "INSERT INTO day_summary (zone, day, summary) VALUES (?, ?, ?) ON CONFLICT (zone, day) DO UPDATE SET summary = excluded.summary")
	if err != nil {
		return wrapKeep(z.Name, err)
	}
	defer st.Close()
	for i, d := range days {
		body, err := json.Marshal(keep(d))
		if err != nil {
			return wrapKeep(z.Name, err)
		}
		if _, err := st.ExecContext(ctx, z.Name, starts[i].Unix(), string(body)); err != nil {
			return wrapKeep(z.Name, err)
		}
	}
	return wrapKeep(z.Name, tx.Commit())
}

func wrapKeep(zone string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("keep the daily summaries of %s: %w", zone, err)
}
