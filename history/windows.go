package history

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// readOpened reads the windows Opened returns: reading them at Open also
// finds a damaged database while it can still be moved aside.
func (s *Store) readOpened(ctx context.Context) error {
	ws, err := s.Windows(ctx, s.opts.Window)
	s.opened = ws
	return err
}

// Opened returns, once, the recent window of every series as Open read it
// back (Options.Window), for the live state to be rebuilt; later calls
// return nil.
func (s *Store) Opened() []climate.Window {
	s.knownMu.Lock()
	defer s.knownMu.Unlock()
	ws := s.opened
	s.opened = nil
	return ws
}

// Windows reads back the recent past of every series that has readings:
// the points within window of its newest current one (climate.NewestCurrent of
// Options.Now: readings ahead of the clock stay in the database, out of
// the live state), for the live state to be rebuilt at start-up; a series
// with a source and no recent point comes back without points, with its
// source, for the live structure's claim. It takes
// three queries whatever the number of series (BenchmarkOpen2000Series).
func (s *Store) Windows(ctx context.Context, window time.Duration) ([]climate.Window, error) {
	ids, err := readSeries(ctx, s.rdb)
	if err != nil {
		return nil, fmt.Errorf("read series: %w", err)
	}
	keep := int64(window / time.Second)
	h := climate.NewestCurrent(s.opts.Now())
	pts := map[int64][]climate.Point{}
	// The raw tier from its newest current point per series (the primary
	// key finds it), then the recent table up to NewestCurrent: it holds an
	// hour or two at most.
	q := `WITH latest (series, t) AS MATERIALIZED (SELECT id, (SELECT max(t) FROM raw WHERE series = id AND t <= ?2) FROM series)
		SELECT r.series, r.t, r.v FROM latest l CROSS JOIN raw r ON r.series = l.series AND r.t >= l.t - ?1 AND r.t <= ?2`
	if err := s.scanPoints(ctx, pts, q, keep, h); err != nil {
		return nil, err
	}
	if err := s.scanPoints(ctx, pts, "SELECT series, t, v FROM recent WHERE t <= ?", h); err != nil {
		return nil, err
	}
	out := make([]climate.Window, 0, len(ids))
	for id, r := range ids {
		if _, ok := pts[id]; !ok && r.source != "" {
			// No recent point, but a source: the live claim must know
			// whose the series is (sensors.Claim), or a simulated
			// reading would join a series the history keeps measured.
			out = append(out, climate.Window{Zone: r.key.zone, Measurement: r.key.m, Source: r.source})
		}
	}
	for id, ps := range pts {
		r, ok := ids[id]
		if !ok || len(ps) == 0 {
			continue
		}
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].T < ps[j].T })
		for j := range ps {
			ps[j].V = decode(r.key.m, ps[j].V)
		}
		latest := ps[len(ps)-1]
		i := sort.Search(len(ps), func(i int) bool { return ps[i].T >= latest.T-keep })
		out = append(out, climate.Window{Zone: r.key.zone, Measurement: r.key.m, Source: r.source, Points: ps[i:], Latest: latest})
	}
	return out, nil
}

// scanPoints appends the (series, t, v) rows of query to pts by series.
func (s *Store) scanPoints(ctx context.Context, pts map[int64][]climate.Point, query string, args ...any) error {
	rows, err := s.rdb.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("read recent points: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var p climate.Point
		if err := rows.Scan(&id, &p.T, &p.V); err != nil {
			return fmt.Errorf("read recent points: %w", err)
		}
		pts[id] = append(pts[id], p)
	}
	return rows.Err()
}

// points reads the raw points of one series of m with from <= t <= to.
func (s *Store) points(ctx context.Context, id int64, m sensors.Measurement, from, to int64) ([]climate.Point, error) {
	rows, err := s.rdb.QueryContext(ctx, "SELECT t, v FROM "+rawView+" WHERE series = ? AND t >= ? AND t <= ? ORDER BY t", id, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var pts []climate.Point
	for rows.Next() {
		var p climate.Point
		if err := rows.Scan(&p.T, &p.V); err != nil {
			return nil, err
		}
		p.V = decode(m, p.V)
		pts = append(pts, p)
	}
	return pts, rows.Err()
}
