package alerts

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// States returns every persisted state.
func (d *DB) States(ctx context.Context) ([]State, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT rule, zone, phase, since, fired_at, value FROM alert_state")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []State
	for rows.Next() {
		var s State
		var since, fired int64
		if err := rows.Scan(&s.Rule, &s.Zone, &s.Phase, &since, &fired, &s.Value); err != nil {
			return nil, err
		}
		s.Since = time.Unix(since, 0)
		if fired != 0 {
			s.FiredAt = time.Unix(fired, 0)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Active returns the persisted alerts that are on, the earliest first, as
// the engine that wrote them has them (it commits every change of phase):
// for a process that reads the database beside the hub.
func (d *DB) Active(ctx context.Context) ([]State, error) {
	all, err := d.States(ctx)
	if err != nil {
		return nil, err
	}
	return activeOf(all), nil
}

// Commit keeps the states and appends the events in one transaction, then
// trims the history to its bounds.
func (d *DB) Commit(ctx context.Context, states []State, events []Event) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, s := range states {
		var fired int64
		if !s.FiredAt.IsZero() {
			fired = s.FiredAt.Unix()
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO alert_state (rule, zone, phase, since, fired_at, value) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (rule, zone) DO UPDATE SET phase = excluded.phase, since = excluded.since, fired_at = excluded.fired_at, value = excluded.value`,
			s.Rule, s.Zone, string(s.Phase), s.Since.Unix(), fired, s.Value); err != nil {
			return fmt.Errorf("state %s/%s: %w", s.Rule, s.Zone, err)
		}
	}
	for _, e := range events {
		if _, err := tx.ExecContext(ctx, "INSERT INTO alert_events (t, type, rule, kind, zone, measurement, value, unit, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			e.Time.Unix(), string(e.Type), e.Rule, string(e.Kind), e.Zone, string(e.Measurement), e.Value, e.Unit, e.Text); err != nil {
			return fmt.Errorf("event %s/%s: %w", e.Rule, e.Zone, err)
		}
	}
	if len(events) > 0 {
		if err := d.trim(ctx, tx); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// trim drops events older than HistoryAge and beyond MaxHistory.
func (d *DB) trim(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM alert_events WHERE t < ?", d.opts.Now().Add(-d.opts.HistoryAge).Unix()); err != nil {
		return fmt.Errorf("trim alert history: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM alert_events WHERE id <= (SELECT max(id) FROM alert_events) - ?", d.opts.MaxHistory); err != nil {
		return fmt.Errorf("trim alert history: %w", err)
	}
	return nil
}
