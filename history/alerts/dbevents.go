package alerts

import (
	"context"
	"database/sql"
	"math"
	"time"
)

// History returns the latest events of [since, until), newest first, at
// most limit (at most the history's bound); a zero since or until leaves
// that end open. The period is chosen in the query, before the limit, so
// an old period is found however many newer events there are.
func (d *DB) History(ctx context.Context, since, until time.Time, limit int) ([]Event, error) {
	if limit <= 0 || limit > d.opts.MaxHistory {
		limit = d.opts.MaxHistory
	}
	var from int64
	if !since.IsZero() {
		from = since.Unix()
	}
	to := int64(math.MaxInt64)
	if !until.IsZero() {
		to = until.Unix()
		if until.Nanosecond() > 0 { // events are whole seconds: one at until's second is before until
			to++
		}
	}
	rows, err := d.db.QueryContext(ctx, "SELECT id, t, type, rule, kind, zone, measurement, value, unit, text FROM alert_events WHERE t >= ? AND t < ? ORDER BY id DESC LIMIT ?", from, to, limit)
	if err != nil {
		return nil, err
	}
	out, _, err := scanEvents(rows)
	return out, err
}

// EventsAfter returns the events after the one numbered after, oldest
// first, at most limit, with the number of the last one returned (after
// when none): for a process beside the hub that follows the history.
// LatestEvent gives the number to start from.
func (d *DB) EventsAfter(ctx context.Context, after int64, limit int) ([]Event, int64, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT id, t, type, rule, kind, zone, measurement, value, unit, text FROM alert_events WHERE id > ? ORDER BY id LIMIT ?", after, limit)
	if err != nil {
		return nil, after, err
	}
	out, last, err := scanEvents(rows)
	if len(out) == 0 {
		last = after
	}
	return out, last, err
}

// LatestEvent is the number of the latest event kept, 0 when none.
func (d *DB) LatestEvent(ctx context.Context) (int64, error) {
	var id sql.NullInt64
	err := d.db.QueryRowContext(ctx, "SELECT max(id) FROM alert_events").Scan(&id)
	return id.Int64, err
}

// scanEvents reads rows of id and event columns, closing them; last is the
// id of the last row.
func scanEvents(rows *sql.Rows) (out []Event, last int64, err error) {
	defer rows.Close()
	for rows.Next() {
		var e Event
		var t int64
		if err := rows.Scan(&last, &t, &e.Type, &e.Rule, &e.Kind, &e.Zone, &e.Measurement, &e.Value, &e.Unit, &e.Text); err != nil {
			return nil, 0, err
		}
		e.Time = time.Unix(t, 0)
		e.House = len(e.Rule) > 6 && e.Rule[:6] == "house."
		out = append(out, e)
	}
	return out, last, rows.Err()
}
