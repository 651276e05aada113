package history

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// keepMarks is how many marks (sensors.WithMark) the history keeps, the
// newest: a source asks about those of its last moments before a crash.
// The MQTT ingest marks at most one batch per message, and its journal
// keeps the latest 2048 to 4096 messages.
const keepMarks = 4096

// writeMarks writes marks within tx, the transaction of their readings.
func (w *writer) writeMarks(ctx context.Context, tx *sql.Tx, marks []string) error {
	for _, m := range marks {
		if _, err := tx.ExecContext(ctx, "INSERT INTO marks (name) VALUES (?) ON CONFLICT (name) DO NOTHING", m); err != nil {
			return fmt.Errorf("insert mark %q: %w", m, err)
		}
	}
	return nil
}

// pruneMarks keeps the newest keepMarks marks.
func (w *writer) pruneMarks(ctx context.Context) error {
	if _, err := w.db.ExecContext(ctx, "DELETE FROM marks WHERE rowid <= (SELECT max(rowid) FROM marks) - ?", keepMarks); err != nil {
		return fmt.Errorf("prune marks: %w", err)
	}
	return nil
}

// Marked says which of names the history holds: the marks of Record calls
// (sensors.WithMark) whose readings are committed. Only the newest
// keepMarks are kept.
func (s *Store) Marked(ctx context.Context, names []string) (map[string]bool, error) {
	found := make(map[string]bool, len(names))
	const chunk = 500
	for len(names) > 0 {
		part := names[:min(chunk, len(names))]
		names = names[len(part):]
		args := make([]any, len(part))
		for i, n := range part {
			args[i] = n
		}
		q := "SELECT name FROM marks WHERE name IN (?" + strings.Repeat(", ?", len(part)-1) + ")"
		if err := s.collectMarks(ctx, q, args, found); err != nil {
			return nil, err
		}
	}
	return found, nil
}

func (s *Store) collectMarks(ctx context.Context, q string, args []any, found map[string]bool) error {
	rows, err := s.rdb.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("read marks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return fmt.Errorf("read marks: %w", err)
		}
		found[n] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read marks: %w", err)
	}
	return nil
}
