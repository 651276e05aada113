package history

import (
	"context"
	"database/sql"
	"fmt"
	"sort"

	"github.com/climated/climated/sensors"
)

// seriesKey names a series: a zone's measurement.
type seriesKey struct {
	zone string
	m    sensors.Measurement
}

// seriesRow is a row of the series table.
type seriesRow struct {
	key    seriesKey
	source string
}

// querier is what readSeries needs: a pool, a connection or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// readSeries reads the series table, id → row: the one place that does.
func readSeries(ctx context.Context, q querier) (map[int64]seriesRow, error) {
	rows, err := q.QueryContext(ctx, "SELECT id, zone, measurement, source FROM series")
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

// noteSeries remembers the series of rs as known to the store, written or
// not yet.
func (s *Store) noteSeries(rs []sensors.Reading) {
	s.knownMu.Lock()
	defer s.knownMu.Unlock()
	for _, r := range rs {
		s.known[seriesKey{r.Zone, r.Measurement}] = true
	}
}

// zoneSeries is a zone and its measurements, sorted.
type zoneSeries struct {
	Name         string
	Measurements []sensors.Measurement
}

// zoneSeries lists the zones the store knows with their measurements:
// those in the database and those recorded but not written yet, sorted.
func (s *Store) zoneSeries(ctx context.Context) ([]zoneSeries, error) {
	ids, err := readSeries(ctx, s.rdb)
	if err != nil {
		return nil, fmt.Errorf("read series: %w", err)
	}
	s.knownMu.Lock()
	for _, r := range ids {
		s.known[r.key] = true
	}
	byZone := map[string][]sensors.Measurement{}
	for k := range s.known {
		byZone[k.zone] = append(byZone[k.zone], k.m)
	}
	s.knownMu.Unlock()
	out := make([]zoneSeries, 0, len(byZone))
	for z, ms := range byZone {
		sort.Slice(ms, func(i, j int) bool { return ms[i] < ms[j] })
		out = append(out, zoneSeries{Name: z, Measurements: ms})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// zoneNames are the names of zs.
func zoneNames(zs []zoneSeries) []string {
	out := make([]string, len(zs))
	for i, z := range zs {
		out[i] = z.Name
	}
	return out
}
