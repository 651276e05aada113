package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/climated/climated/history/climate"
)

// keepChunk is the most days of a zone the keeper summarises at once.
const keepChunk = 31

// keepBudget bounds the time a writer's tick spends keeping days: a
// year's daily summaries of a weather station and two rooms take about 3 s
// on a 2-core amd64 server, so a new or rebuilt history is kept over a
// few dozen ticks while the writer goes on writing.
const keepBudget = 150 * time.Millisecond

// keepPace sizes the keeper's runs by what a day took in the runs before
// (a station's day costs more than a room's, a Pi more than a server, the
// race detector several times that): each run is as many days as fit in
// what is left of the tick's budget, at least one, so that a tick ends
// within about a day's work of its budget and the writes it holds up wait
// no longer.
type keepPace struct {
	perDay atomic.Int64 // the latest run's time per day in nanoseconds; 0 before the first
}

// days is how many of missing to keep with left of the budget.
func (p *keepPace) days(missing int, left time.Duration) int {
	n := 1
	if per := time.Duration(p.perDay.Load()); per > 0 {
		n = int(left / per)
	}
	return max(1, min(n, missing, keepChunk))
}

// took notes a run of n days that took d.
func (p *keepPace) took(n int, d time.Duration) { p.perDay.Store(int64(d) / int64(n)) }

// keepDays summarises, for every zone, the days that have ended, whose
// readings are compacted (keptUntil) and that are not kept yet, oldest
// first, and writes them with db (the writer's connection), until budget
// is spent, after one run at least (finding the days may take the whole
// budget on a big history or a slow machine). It reports whether every
// such day is kept.
func (s *Store) keepDays(ctx context.Context, db *sql.DB, budget time.Duration) (done bool, err error) {
	deadline := time.Now().Add(budget)
	ran := false
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
			left := time.Until(deadline)
			if left <= 0 && ran {
				return false, nil
			}
			n := s.keepPace.days(len(missing), left)
			start := time.Now()
			if err := s.keepRun(ctx, db, z, missing[:n]); err != nil {
				return false, err
			}
			s.keepPace.took(n, time.Since(start))
			missing, ran = missing[n:], true
		}
	}
	return true, nil
}

// missingDays are the starts of zone's days, from its first reading's
// (of Earliest or later: no one can ask for a day before it) to
// keptUntil, that are not kept.
func (s *Store) missingDays(ctx context.Context, zone string) ([]time.Time, error) {
	var first sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT min(t) FROM (SELECT min(r.t) AS t FROM rollup_1h r JOIN series s ON s.id = r.series WHERE s.zone = ?1 AND r.t >= ?2
		UNION ALL SELECT min(r.t) FROM recent r JOIN series s ON s.id = r.series WHERE s.zone = ?1 AND r.t >= ?2)`, zone, Earliest.Unix()).Scan(&first)
	if err != nil || !first.Valid {
		return nil, wrapKeep(zone, err)
	}
	until, err := s.keptUntil(ctx, zone)
	if err != nil {
		return nil, err
	}
	loc := s.opts.Location
	from := climate.LocalMidnight(time.Unix(first.Int64, 0), loc)
	kept, err := s.keptDayStarts(ctx, zone, from.Unix(), until.Unix())
	if err != nil {
		return nil, err
	}
	var out []time.Time
	for d := from; d.Before(until); d = nextMidnight(d, loc) {
		if !kept[d.Unix()] {
			out = append(out, d)
		}
	}
	return out, nil
}

// keptDayStarts are the starts of zone's kept days in [from, to): the
// rows' keys only, not their summaries.
func (s *Store) keptDayStarts(ctx context.Context, zone string, from, to int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if s.daysForeign {
		return out, nil // in another zone: none is this store's
	}
	rows, err := s.rdb.QueryContext(ctx, "SELECT day FROM day_summary WHERE zone = ? AND day >= ? AND day < ?", zone, from, to)
	if err != nil {
		return nil, fmt.Errorf("read the kept days of %s: %w", zone, err)
	}
	defer rows.Close()
	for rows.Next() {
		var day int64
		if err := rows.Scan(&day); err != nil {
			return nil, fmt.Errorf("read the kept days of %s: %w", zone, err)
		}
		out[day] = true
	}
	return out, rows.Err()
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
