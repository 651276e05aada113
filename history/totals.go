package history

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/climated/climated/sensors"
)

// Totals is, for every zone that has m, the sum of all the values of m
// the history holds, as integers of m's resolution (encode): what the
// counter of an amount (rain) on /metrics starts from, so that it goes on
// across a restart instead of starting again from 0.
//
// The hourly buckets are kept for ever and hold every reading compaction
// has moved; recent holds the rest (tier.of reads the two the same way).
// Raw and the 5-minute buckets hold the same readings again and are
// pruned, so they are left out. Rounding to the resolution makes the sum
// the same however compaction has split it between the two.
func (s *Store) Totals(ctx context.Context, m sensors.Measurement) (map[string]int64, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT s.zone,
		(SELECT sum(total) FROM rollup_1h WHERE series = s.id),
		(SELECT sum(v) FROM recent WHERE series = s.id)
		FROM series s WHERE s.measurement = ?`, string(m))
	if err != nil {
		return nil, fmt.Errorf("total of %s: %w", m, err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var zone string
		var moved sql.NullFloat64
		var recent sql.NullInt64
		if err := rows.Scan(&zone, &moved, &recent); err != nil {
			return nil, fmt.Errorf("total of %s: %w", m, err)
		}
		out[zone] = encode(m, moved.Float64) + recent.Int64
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("total of %s: %w", m, err)
	}
	return out, nil
}
