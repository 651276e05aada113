package history

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// dayKeeper is how the writer keeps the daily summaries: keep is
// Store.keepDays (nil: the store keeps none, as a read-only one), and day
// the local midnight at which every day that could be was kept.
type dayKeeper struct {
	keep func(ctx context.Context, db *sql.DB, budget time.Duration) (bool, error)
	day  int64
	took time.Duration // spent on the days kept since the last were all
	// stale is set by whoever deletes kept days outside the writer's
	// transactions (forget): the keeper looks again.
	stale atomic.Bool
	// paused keeps the writer from keeping days on its own (tests that
	// keep them by hand, or look at what the tiers say first).
	paused atomic.Bool
	// foreign: the kept days are in another time zone than the store's
	// (Store.settleDayZone); a write deletes those around the days it
	// changes.
	foreign bool
}

// keepEvery is how often the writer's loop looks for days to keep, apart
// from its flush ticks (a minute on a hub, commit_interval).
const keepEvery = time.Second

// maybeKeepDays keeps, within keepBudget, days not kept yet: every
// keepEvery until all are, then again once a write deletes a kept day (or a
// series is taken) or a new day begins. It runs in the writer's goroutine,
// between writes, so that no write changes a day while it is summarised.
func (w *writer) maybeKeepDays() {
	if w.days.keep == nil || w.compacting || w.days.paused.Load() {
		return
	}
	today := climate.LocalMidnight(w.opts.Now(), w.opts.Location).Unix()
	if w.days.stale.Swap(false) {
		w.daysKept = false
	}
	if w.daysKept && w.days.day == today {
		return
	}
	start := time.Now()
	done, err := w.days.keep(context.Background(), w.db, keepBudget)
	w.days.took += time.Since(start)
	if err != nil {
		if !w.sayFull(err, 0) {
			w.log.Warn("daily summaries", "err", err)
		}
		return
	}
	if done && w.days.took > time.Second {
		w.log.Info("daily summaries kept", "took", w.days.took.Round(time.Millisecond))
	}
	if done {
		w.daysKept, w.days.day, w.days.took = true, today, 0
	}
}

// touchedDays are the kept days a transaction's readings change: a zone's
// local midnights.
type touchedDays map[string]map[int64]bool

func (d touchedDays) add(r sensors.Reading, loc *time.Location) {
	days := d[r.Zone]
	if days == nil {
		days = map[int64]bool{}
		d[r.Zone] = days
	}
	days[climate.LocalMidnight(r.Time, loc).Unix()] = true
}

// foreignMargin is how far around a day of the store's time zone the
// kept days of another zone are deleted when a write changes it: a local
// day holding an instant starts less than two days before it (a day is
// 25 hours at most, but for a zone that moved across the date line),
// and the store's day holding the instant starts at most that instant.
const foreignMargin = 2 * 86400

// unkeep deletes the kept days that d changes: they are summarised again.
// With foreign (the days are kept in another time zone) it deletes every
// kept day of the zone within foreignMargin of a day d changes.
func (d touchedDays) unkeep(ctx context.Context, tx *sql.Tx, foreign bool) error {
	margin := int64(0)
	if foreign {
		margin = foreignMargin
	}
	for zone, days := range d {
		for day := range days {
			if _, err := tx.ExecContext(ctx, "DELETE FROM day_summary WHERE zone = ? AND day >= ? AND day <= ?", zone, day-margin, day+margin); err != nil {
				return fmt.Errorf("delete the kept day %d of %s: %w", day, zone, err)
			}
		}
	}
	return nil
}
