package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/climated/climated/sensors"
)

// DefaultRefresh is how often a read-only store looks for new readings.
const DefaultRefresh = 2 * time.Second

// ErrReadOnly is returned by Record on a store opened with OpenReadOnly.
var ErrReadOnly = errors.New("history opened read-only")

// OpenReadOnly opens the database another process (climated serve) writes,
// for reading alongside it: it never writes, and every refresh interval it
// takes in the readings committed since, so its state, its notifications
// and its answers follow the daemon's. Rain amounts recorded twice for the
// same second in separate commits are seen once.
func OpenReadOnly(ctx context.Context, path string, opts *Options, refresh time.Duration) (*Store, error) {
	s := newStore(path, opts)
	s.readOnly = true
	if refresh <= 0 {
		refresh = DefaultRefresh
	}
	if err := s.openReadOnly(ctx); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("open history %s read-only: %w", path, err)
	}
	if err := s.rebuild(ctx); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("open history %s read-only: %w", path, err)
	}
	r := &refresher{s: s, seen: map[int64]int64{}}
	go r.loop(refresh)
	return s, nil
}

func (s *Store) openReadOnly(ctx context.Context) error {
	abs, err := filepath.Abs(s.path)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err != nil {
		return fmt.Errorf("no database there (%w): start climated serve first, or name it with --db", err)
	}
	busy := fmt.Sprint(DefaultBusyTimeout.Milliseconds())
	s.rdb, err = sql.Open("sqlite", dsn(abs, url.Values{"mode": {"ro"}, "_busy_timeout": {busy}, "_query_only": {"1"}}))
	if err != nil {
		return err
	}
	s.rdb.SetMaxOpenConns(DefaultReaders)
	var version int
	if err := s.rdb.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return explainOpen(err)
	}
	ms, err := migrations()
	if err != nil {
		return err
	}
	if version != len(ms) {
		return fmt.Errorf("schema version %d, this climated reads %d: run climated serve (of this version) on it first", version, len(ms))
	}
	return nil
}

// refresher takes in what the writing process committed.
type refresher struct {
	s    *Store
	seen map[int64]int64 // series id → newest time taken in
}

func (r *refresher) loop(every time.Duration) {
	defer close(r.s.writerDone)
	tick := time.NewTicker(every)
	defer tick.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-r.s.quit; cancel() }()
	r.init(ctx)
	for {
		select {
		case <-r.s.quit:
			return
		case <-tick.C:
			if err := r.poll(ctx); err != nil && ctx.Err() == nil {
				r.s.log.Warn("read new readings", "err", err)
			}
		}
	}
}

// init notes how far the rebuilt state goes for every series.
func (r *refresher) init(ctx context.Context) {
	ids, err := r.s.seriesIDs(ctx)
	if err != nil {
		// Without it the first poll takes in the window again: values
		// repeat, but amounts would add up twice, so say so.
		r.s.log.Warn("read series at start; the first refresh may count rain twice", "err", err)
		return
	}
	r.s.live.mu.RLock()
	defer r.s.live.mu.RUnlock()
	for id, k := range ids {
		if rec := r.s.live.series[k.key]; rec != nil {
			r.seen[id] = rec.latest.T
		}
	}
}

func (r *refresher) poll(ctx context.Context) error {
	ids, err := r.s.seriesIDs(ctx)
	if err != nil {
		return err
	}
	var rs []sensors.Reading
	for id, k := range ids {
		pts, err := r.s.points(ctx, id, k.key.m, r.seen[id]+1, 1<<62)
		if err != nil {
			return err
		}
		for _, p := range pts {
			rs = append(rs, sensors.Reading{Zone: k.key.zone, Measurement: k.key.m, Value: p.V, Time: time.Unix(p.T, 0), Source: k.source})
			r.seen[id] = p.T
		}
	}
	if len(rs) > 0 {
		added := r.s.live.add(rs)
		r.s.notify(rs, added)
	}
	return nil
}

type seriesRow struct {
	key    seriesKey
	source string
}

func (s *Store) seriesIDs(ctx context.Context) (map[int64]seriesRow, error) {
	rows, err := s.rdb.QueryContext(ctx, "SELECT id, zone, measurement, source FROM series")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]seriesRow{}
	for rows.Next() {
		var id int64
		var r seriesRow
		var m string
		if err := rows.Scan(&id, &r.key.zone, &m, &r.source); err != nil {
			return nil, err
		}
		r.key.m = sensors.Measurement(m)
		out[id] = r
	}
	return out, rows.Err()
}
