package history

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// DefaultRefresh is how often a read-only store looks for new readings.
const DefaultRefresh = 2 * time.Second

// ErrReadOnly is returned by Record on a store opened with OpenReadOnly.
var ErrReadOnly = errors.New("history opened read-only")

// OpenReadOnly opens the database another process (climated serve) writes,
// for reading alongside it: it never writes. Follow takes in what that
// process commits.
func OpenReadOnly(ctx context.Context, path string, opts *Options) (*Store, error) {
	s := newStore(path, opts)
	s.readOnly = true
	if err := s.openReadOnly(ctx); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("open history %s read-only: %w", path, err)
	}
	if err := s.readOpened(ctx); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("open history %s read-only: %w", path, err)
	}
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
	s.rdb, err = OpenSQLite(dsn(abs, url.Values{"mode": {"ro"}, "_busy_timeout": {busy}, "_query_only": {"1"}}))
	if err != nil {
		return err
	}
	s.rdb.SetMaxOpenConns(DefaultReaders)
	if err := CheckSchema(ctx, s.rdb, OwnSchema); err != nil {
		return explainOpen(err)
	}
	return nil
}

// Follow passes f, every interval, the readings committed since the last
// time, until ctx ends; from is what the caller has already (Windows), so
// that it is not passed again. Rain amounts recorded twice for the same
// second in separate commits are seen once. It returns when ctx ends.
func (s *Store) Follow(ctx context.Context, every time.Duration, from []climate.Window, f func([]sensors.Reading)) {
	if every <= 0 {
		every = DefaultRefresh
	}
	r := &follower{s: s, seen: map[int64]int64{}}
	r.init(ctx, from)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			rs, err := r.poll(ctx)
			if err != nil && ctx.Err() == nil {
				s.log.Warn("read new readings", "err", err)
			}
			if len(rs) > 0 {
				f(rs)
			}
		}
	}
}

// follower notes how far it has taken in every series.
type follower struct {
	s    *Store
	seen map[int64]int64 // series id → newest time taken in
}

// init notes how far from goes for every series.
func (r *follower) init(ctx context.Context, from []climate.Window) {
	ids, err := readSeries(ctx, r.s.rdb)
	if err != nil {
		// Without it the first poll takes in the window again: values
		// repeat, but amounts would add up twice, so say so.
		r.s.log.Warn("read series at start; the first refresh may count rain twice", "err", err)
		return
	}
	latest := map[seriesKey]int64{}
	for _, w := range from {
		latest[seriesKey{w.Zone, w.Measurement}] = w.Latest.T
	}
	for id, k := range ids {
		if t, ok := latest[k.key]; ok {
			r.seen[id] = t
		}
	}
}

func (r *follower) poll(ctx context.Context) ([]sensors.Reading, error) {
	ids, err := readSeries(ctx, r.s.rdb)
	if err != nil {
		return nil, err
	}
	var rs []sensors.Reading
	for id, k := range ids {
		// Up to NewestCurrent: a reading ahead of the clock is taken once the
		// clock reaches it, and does not hide the ones before it till then.
		pts, err := r.s.points(ctx, id, k.key.m, r.seen[id]+1, climate.NewestCurrent(r.s.opts.Now()))
		if err != nil {
			return rs, err
		}
		for _, p := range pts {
			rs = append(rs, sensors.Reading{Zone: k.key.zone, Measurement: k.key.m, Value: p.V, Time: time.Unix(p.T, 0), Source: k.source})
			r.seen[id] = p.T
		}
	}
	return rs, nil
}
