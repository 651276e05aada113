package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/climated/climated/sensors"
)

// keepMarks is how many marks (sensors.Batch's Mark) the history keeps, the
// newest: a source asks about those of its last moments before a crash.
// The MQTT ingest marks at most one batch per message, and its journal
// keeps the latest 2048 to 4096 messages.
const keepMarks = 4096

// writeNotes writes marks and states within tx, the transaction of their
// readings; a key's later state replaces its earlier.
func (w *writer) writeNotes(ctx context.Context, tx *sql.Tx, n notes) error {
	for _, m := range n.marks {
		if _, err := tx.ExecContext(ctx, "INSERT INTO marks (name) VALUES (?) ON CONFLICT (name) DO NOTHING", m); err != nil {
			return fmt.Errorf("insert mark %q: %w", m, err)
		}
	}
	for _, st := range n.states {
		if _, err := tx.ExecContext(ctx, "INSERT INTO source_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", st.Key, st.Value); err != nil {
			return fmt.Errorf("write state %q: %w", st.Key, err)
		}
	}
	return nil
}

// SourceState is the committed state of key (sensors.Batch's States); false
// when none was written.
func (s *Store) SourceState(ctx context.Context, key string) (string, bool, error) {
	var v string
	switch err := s.rdb.QueryRowContext(ctx, "SELECT value FROM source_state WHERE key = ?", key).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("read state %q: %w", key, err)
	}
	return v, true, nil
}

// LatestState is the state of key as the history will hold it once what
// it was given is written: the newest of the batches recorded and not
// yet committed (while the disk is full, sensors.ErrDiskFull, they wait
// in the writer's memory), else the committed one (SourceState). A
// source that restores its state after a failed Flush reads it here:
// the committed one would be older than what it recorded last.
func (s *Store) LatestState(ctx context.Context, key string) (string, bool, error) {
	if s.readOnly {
		return s.SourceState(ctx, key)
	}
	a := stateAsk{key: key, reply: make(chan pendingState, 1)}
	select {
	case s.w.stateReq <- a:
	case <-s.writerDone:
		return "", false, sensors.ErrStopped
	case <-ctx.Done():
		return "", false, ctx.Err()
	}
	select {
	case p := <-a.reply:
		if p.ok {
			return p.value, true, nil
		}
	case <-ctx.Done():
		return "", false, ctx.Err()
	}
	// Nothing of key waits: what the writer commits from now on is
	// recorded after this question, and the committed state is the
	// latest.
	return s.SourceState(ctx, key)
}

// stateAsk is LatestState's question to the writer goroutine, which
// owns the queue.
type stateAsk struct {
	key   string
	reply chan pendingState
}

// pendingState is a state the writer holds, not yet committed.
type pendingState struct {
	value string
	ok    bool
}

// pruneMarks keeps the newest keepMarks marks.
func (w *writer) pruneMarks(ctx context.Context) error {
	if _, err := w.db.ExecContext(ctx, "DELETE FROM marks WHERE rowid <= (SELECT max(rowid) FROM marks) - ?", keepMarks); err != nil {
		return fmt.Errorf("prune marks: %w", err)
	}
	return nil
}

// Marked says which of names the history holds: the marks of Record calls
// (sensors.Batch's Mark) whose readings are committed. Only the newest
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
