package history

import (
	"context"
	"database/sql"
	"fmt"
	"math"

	"github.com/climated/climated/sensors"
)

// Position is a place in the order ReadingsAfter reads the raw tier in:
// by time (Unix seconds), then by series. The zero Position is before
// every reading.
type Position struct {
	T      int64
	Series int64
}

// Before reports whether p comes before q.
func (p Position) Before(q Position) bool {
	return p.T < q.T || (p.T == q.T && p.Series < q.Series)
}

// End is the position after every reading of second t.
func End(t int64) Position { return Position{T: t, Series: math.MaxInt64} }

// Stored is one committed reading of the raw tier with its series' names:
// Steps is the value in integers of the measurement's resolution, as
// kept, Value the same in its unit.
type Stored struct {
	Position
	Zone        string
	Measurement sensors.Measurement
	Source      string
	Steps       int64
	Value       float64
}

// ReadingsAfter reads up to limit committed readings after from and no
// later than second to, in Position order. Readings that compaction moved
// (raw) and those still in recent are read alike; readings pruned by the
// raw retention are gone. The readings between from and to are sorted
// before the limit applies: a caller keeps to - from.T short (NextAfter
// finds where the next readings are).
func (s *Store) ReadingsAfter(ctx context.Context, from Position, to int64, limit int) ([]Stored, error) {
	if limit <= 0 || to < from.T {
		return nil, nil
	}
	// Per series, so that raw (clustered by series) is read by its key.
	rows, err := s.rdb.QueryContext(ctx, `SELECT r.series, r.t, r.v, s.zone, s.measurement, s.source
		FROM series s JOIN `+rawView+` r ON r.series = s.id
		WHERE r.t >= ?1 AND r.t <= ?3 AND (r.t > ?1 OR r.series > ?2)
		ORDER BY r.t, r.series LIMIT ?4`, from.T, from.Series, to, limit)
	if err != nil {
		return nil, fmt.Errorf("readings after %d: %w", from.T, err)
	}
	defer rows.Close()
	var out []Stored
	for rows.Next() {
		var r Stored
		var m string
		if err := rows.Scan(&r.Series, &r.T, &r.Steps, &r.Zone, &m, &r.Source); err != nil {
			return nil, fmt.Errorf("readings after %d: %w", from.T, err)
		}
		r.Measurement = sensors.Measurement(m)
		r.Value = decode(r.Measurement, float64(r.Steps))
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("readings after %d: %w", from.T, err)
	}
	return out, nil
}

// NextAfter is the second of the first committed reading after from, and
// false when there is none.
func (s *Store) NextAfter(ctx context.Context, from Position) (int64, bool, error) {
	var t sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT min(t) FROM (
		SELECT (SELECT min(t) FROM raw WHERE series = s.id AND (t > ?1 OR (t = ?1 AND series > ?2))) AS t FROM series s
		UNION ALL SELECT min(t) FROM recent WHERE t > ?1 OR (t = ?1 AND series > ?2))`, from.T, from.Series).Scan(&t)
	if err != nil {
		return 0, false, fmt.Errorf("next reading after %d: %w", from.T, err)
	}
	return t.Int64, t.Valid, nil
}

// CountAfter is how many committed readings lie after from and no later
// than second upto.
func (s *Store) CountAfter(ctx context.Context, from Position, upto int64) (int64, error) {
	var n int64
	err := s.rdb.QueryRowContext(ctx, `SELECT count(*) FROM series s JOIN `+rawView+` r ON r.series = s.id
		WHERE r.t >= ?1 AND r.t <= ?3 AND (r.t > ?1 OR r.series > ?2)`, from.T, from.Series, upto).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("readings after %d: %w", from.T, err)
	}
	return n, nil
}

// AmountTotals is, for every series of an amount (rain), the sum of its
// readings up to and including position at, in integers of its
// resolution: what a counter of it that had counted every reading up to
// there would say. Everything the history holds is counted (the hourly
// buckets and recent, as Totals), less the raw readings after at.
func (s *Store) AmountTotals(ctx context.Context, at Position) (map[int64]int64, error) {
	out := map[int64]int64{}
	for _, info := range sensors.Catalogue() {
		if info.Kind != sensors.Amount {
			continue
		}
		rows, err := s.rdb.QueryContext(ctx, `SELECT s.id,
			(SELECT sum(total) FROM rollup_1h WHERE series = s.id),
			(SELECT sum(v) FROM recent WHERE series = s.id),
			(SELECT sum(v) FROM `+rawView+` WHERE series = s.id AND (t > ?2 OR (t = ?2 AND series > ?3)))
			FROM series s WHERE s.measurement = ?1`, string(info.Name), at.T, at.Series)
		if err != nil {
			return nil, fmt.Errorf("totals of %s: %w", info.Name, err)
		}
		err = scanTotals(rows, info.Name, out)
		if err != nil {
			return nil, fmt.Errorf("totals of %s: %w", info.Name, err)
		}
	}
	return out, nil
}

func scanTotals(rows *sql.Rows, m sensors.Measurement, out map[int64]int64) error {
	defer rows.Close()
	for rows.Next() {
		var id int64
		var moved sql.NullFloat64
		var recent, after sql.NullInt64
		if err := rows.Scan(&id, &moved, &recent, &after); err != nil {
			return err
		}
		out[id] = encode(m, moved.Float64) + recent.Int64 - after.Int64
	}
	return rows.Err()
}
