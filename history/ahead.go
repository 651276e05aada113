package history

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/climated/climated/history/climate"
)

// Ahead describes the readings of the history stamped ahead of a clock
// (after climate.NewestCurrent): recorded while a clock was set ahead, or
// imported so. They stay in the history and are not current until the
// clock reaches them.
type Ahead struct {
	Count       int64
	First, Last time.Time // the earliest and the latest of them
}

// Ahead counts the readings stamped ahead of now and gives their range;
// none when now is before climate.ClockSet (a clock never set judges
// nothing). Each series' primary key finds its readings, so it reads
// only them whatever the size of the history.
func (s *Store) Ahead(ctx context.Context, now time.Time) (Ahead, error) {
	var a Ahead
	var first, last sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT count(*), min(t), max(t) FROM (
		SELECT r.t FROM series s CROSS JOIN raw r ON r.series = s.id AND r.t > ?1
		UNION ALL SELECT t FROM recent WHERE t > ?1)`, climate.NewestCurrent(now)).Scan(&a.Count, &first, &last)
	if err != nil {
		return a, fmt.Errorf("count readings ahead of the clock: %w", err)
	}
	if a.Count > 0 {
		a.First, a.Last = time.Unix(first.Int64, 0), time.Unix(last.Int64, 0)
	}
	return a, nil
}
