package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	// A year's kept days are 365 bodies to decode: segmentio's decoder
	// reads them in a third of encoding/json's time.
	"github.com/segmentio/encoding/json"

	"github.com/climated/climated/history/climate"
)

// The daily summaries are kept per zone and local day (the day_summary
// table): a day is summarised once, after it ended and its readings left
// the recent table, so that a year of climate://daily reads 365 rows, not
// several queries a day and measurement. What depends on settings read at
// answer time is not kept: the degree days (from the kept mean and
// degree_day_base) and the sun's times. A reading written for a kept day
// deletes its row (writeTx), as do forget and a series a measured source
// takes; the keeper (keepDays) summarises again what is missing.

// keptDay is what a day_summary row holds of a Day.
type keptDay struct {
	Measurements map[string]keptSummary `json:"m,omitempty"`
	FeelsLike    *FeelsLike             `json:"f,omitempty"`
}

// keptSummary is a Summary as kept, its direction flag with it.
type keptSummary struct {
	Count     int      `json:"n"`
	Min       float64  `json:"lo,omitempty"`
	MinTime   int64    `json:"lot,omitempty"`
	Max       float64  `json:"hi,omitempty"`
	MaxTime   int64    `json:"hit,omitempty"`
	Mean      float64  `json:"mean"`
	Sum       *float64 `json:"sum,omitempty"`
	Direction bool     `json:"dir,omitempty"`
}

func keep(d Day) keptDay {
	k := keptDay{FeelsLike: d.FeelsLike}
	if len(d.Measurements) > 0 {
		k.Measurements = make(map[string]keptSummary, len(d.Measurements))
	}
	for m, s := range d.Measurements {
		k.Measurements[m] = keptSummary{s.Count, s.Min, s.MinTime, s.Max, s.MaxTime, s.Mean, s.Sum, s.direction}
	}
	return k
}

// day is k as the Day of date.
func (k keptDay) day(date string) Day {
	d := Day{Date: date, Measurements: make(map[string]Summary, len(k.Measurements)), FeelsLike: k.FeelsLike}
	for m, s := range k.Measurements {
		d.Measurements[m] = Summary{Count: s.Count, Min: s.Min, MinTime: s.MinTime, Max: s.Max, MaxTime: s.MaxTime, Mean: s.Mean, Sum: s.Sum, direction: s.Direction}
	}
	return d
}

// keptDays are zone's kept days that start in [from, to), by their start.
func (s *Store) keptDays(ctx context.Context, zone string, from, to int64) (map[int64]keptDay, error) {
	if s.daysForeign {
		return map[int64]keptDay{}, nil // in another zone: none is this store's
	}
	rows, err := s.readRows(ctx, "SELECT day, summary FROM day_summary WHERE zone = ? AND day >= ? AND day < ?", zone, from, to)
	if err != nil {
		return nil, fmt.Errorf("read the kept daily summaries of %s: %w", zone, err)
	}
	defer rows.Close()
	out := map[int64]keptDay{}
	for rows.Next() {
		var day int64
		var body []byte
		if err := rows.Scan(&day, &body); err != nil {
			return nil, fmt.Errorf("read the kept daily summaries of %s: %w", zone, err)
		}
		var k keptDay
		if err := json.Unmarshal(body, &k); err != nil {
			continue // not one this version wrote: summarised again
		}
		out[day] = k
	}
	return out, rows.Err()
}

// keptUntil is when the kept days of zone end being sure: the local
// midnight that starts the day of its oldest reading still in the recent
// table (a day with one there may change), or today's; no kept day may
// end after it.
func (s *Store) keptUntil(ctx context.Context, zone string) (time.Time, error) {
	// Days kept in another time zone are not this store's days: a
	// read-only store (climated mcp, climated data) in another zone than
	// the hub that keeps them reads none.
	var kept string
	err := s.readRow(ctx, "SELECT zone FROM day_summary_zone WHERE id = 1").Scan(&kept)
	if errors.Is(err, sql.ErrNoRows) || err == nil && kept != s.dayKey {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("read the kept daily summaries' time zone: %w", err)
	}
	loc := s.opts.Location
	until := climate.LocalMidnight(s.opts.Now(), loc)
	var oldest sql.NullInt64
	err = s.readRow(ctx, "SELECT min(r.t) FROM recent r JOIN series s ON s.id = r.series WHERE s.zone = ?", zone).Scan(&oldest)
	if err != nil {
		return until, fmt.Errorf("read the recent readings of %s: %w", zone, err)
	}
	if oldest.Valid {
		if d := climate.LocalMidnight(time.Unix(oldest.Int64, 0), loc); d.Before(until) {
			until = d
		}
	}
	return until, nil
}

// dayZoneKey names loc for the kept days: its name and a hash of every
// change of its offset from 1970 to 2100, so that a zone whose rules
// changed (a new tzdata, or "Local" on another machine) is another key.
// A zone with summer time changes about 260 times in those years.
func dayZoneKey(loc *time.Location) string {
	h := fnv.New64a()
	end := time.Date(2100, time.January, 1, 0, 0, 0, 0, time.UTC)
	for t := time.Unix(0, 0).In(loc); t.Before(end); {
		_, off := t.Zone()
		_, next := t.ZoneBounds()
		fmt.Fprintf(h, "%d@%d,", off, next.Unix())
		if next.IsZero() || !next.After(t) {
			break // no change after t
		}
		t = next
	}
	return fmt.Sprintf("%s %x", loc.String(), h.Sum64())
}

// settleDayZone makes the kept days the store's, at Open. The hub's
// store deletes those kept in another time zone than its own (they are
// summarised again in its zone) and notes its zone. A store opened for
// one command (Options.Command) in another zone than the one noted
// changes nothing at Open, so that a command that fails leaves the kept
// days as they were: it reads none of them and keeps none, and each of
// its writes deletes, in the same transaction, the kept days it changes
// in whatever zone they were kept (touchedDays.unkeep), for the hub to
// summarise again. The kept days thus always equal what the tiers say in
// the noted zone.
func (s *Store) settleDayZone(ctx context.Context) error {
	key := s.dayKey
	if s.opts.Command {
		noted, err := notedDayZone(ctx, s.wdb)
		if err != nil {
			return err
		}
		if noted != "" && noted != key {
			s.daysForeign, s.w.days.foreign = true, true
			s.log.Info("daily summaries: kept in another time zone than this command's; left as they are but for the days it changes", "kept_in", noted, "here", key)
			return nil
		}
	}
	was, err := checkDayZone(ctx, s.wdb, key)
	if err != nil {
		return err
	}
	if was != "" {
		s.log.Info("daily summaries: the time zone changed, they are summarised again in the new one", "was", was, "now", key)
	}
	s.w.days.keep = s.keepDays
	return nil
}

// notedDayZone is the time zone the kept days are in (dayZoneKey), ""
// when none is noted.
func notedDayZone(ctx context.Context, db *sql.DB) (string, error) {
	var noted string
	err := db.QueryRowContext(ctx, "SELECT zone FROM day_summary_zone WHERE id = 1").Scan(&noted)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("read the kept daily summaries' time zone: %w", err)
	}
	return noted, nil
}

// checkDayZone deletes the kept days when they were kept in another time
// zone than the hub's (key, a dayZoneKey), and notes the hub's. It reports what the key was
// ("" for none) when it changed.
func checkDayZone(ctx context.Context, db *sql.DB, key string) (was string, err error) {
	was, err = notedDayZone(ctx, db)
	if err != nil || was == key {
		return "", err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("kept daily summaries: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM day_summary"); err != nil {
		return "", fmt.Errorf("kept daily summaries: delete those of another time zone: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO day_summary_zone (id, zone) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET zone = excluded.zone", key); err != nil {
		return "", fmt.Errorf("kept daily summaries: note the time zone: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return "", fmt.Errorf("kept daily summaries: %w", err)
	}
	return was, nil
}
