package remotewrite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// cursor is what the store has taken, as kept in the history's database
// (its part of the schema, Schema): the position of the last reading sent,
// and the amounts' counters up to there.
type cursor struct {
	pos    history.Position
	sentAt int64 // Unix seconds of the last request the store took; 0 for none
	sent   int64 // samples the store took, all told
	failed int64 // samples it refused for good, all told
	totals map[int64]int64
	sims   map[int64]bool // whether each series' total counts simulated readings
}

// cursorDB keeps one store's cursor, on a connection of its own (as the
// alerts keep theirs): a few rows a request, waiting for the history's
// writer as another process would.
type cursorDB struct {
	db  *sql.DB
	url string
}

// ErrNoSchema says the file is not a history yet (history.Open makes it
// first), or, to a read-only user, that its remote-write table is not
// made or not up to date.
var ErrNoSchema = errors.New("the database has no remote_write table of this climated yet")

func openCursor(ctx context.Context, path, store string, readOnly bool) (*cursorDB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := history.FileMade(abs); err != nil {
		return nil, fmt.Errorf("%w (%w)", ErrNoSchema, err)
	}
	q := url.Values{"_busy_timeout": {"5000"}, "_journal_mode": {"wal"}, "_synchronous": {"normal"}, "_txlock": {"immediate"}}
	if readOnly {
		q = url.Values{"_busy_timeout": {"5000"}, "mode": {"ro"}, "_query_only": {"1"}}
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: q.Encode()}
	db, err := history.OpenSQLite(u.String())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	migrate := history.Migrate
	if readOnly {
		migrate = history.CheckSchema
	}
	err = migrate(ctx, db, Schema)
	if errors.Is(err, history.ErrNoHistory) || errors.Is(err, history.ErrSchemaBehind) {
		err = fmt.Errorf("%w (%w)", ErrNoSchema, err)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return &cursorDB{db: db, url: store}, nil
}

func (c *cursorDB) Close() error { return c.db.Close() }

// load reads the cursor; false when the store has none yet.
func (c *cursorDB) load(ctx context.Context) (cursor, bool, error) {
	cur := cursor{totals: map[int64]int64{}}
	err := c.db.QueryRowContext(ctx, "SELECT t, series, sent_at, sent, failed FROM remote_write WHERE url = ?", c.url).
		Scan(&cur.pos.T, &cur.pos.Series, &cur.sentAt, &cur.sent, &cur.failed)
	if errors.Is(err, sql.ErrNoRows) {
		return cur, false, nil
	}
	if err != nil {
		return cur, false, fmt.Errorf("read remote-write cursor: %w", err)
	}
	rows, err := c.db.QueryContext(ctx, "SELECT series, total FROM remote_write_totals WHERE url = ?", c.url)
	if err != nil {
		return cur, false, fmt.Errorf("read remote-write totals: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, total int64
		if err := rows.Scan(&id, &total); err != nil {
			return cur, false, fmt.Errorf("read remote-write totals: %w", err)
		}
		cur.totals[id] = total
	}
	return cur, true, rows.Err()
}

// save writes cur in one transaction, with the totals of the series in
// changed (all of cur.totals when changed is nil).
func (c *cursorDB) save(ctx context.Context, cur cursor, changed map[int64]bool) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save remote-write cursor: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO remote_write (url, t, series, sent_at, sent, failed) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (url) DO UPDATE SET t = excluded.t, series = excluded.series, sent_at = excluded.sent_at, sent = excluded.sent, failed = excluded.failed`,
		c.url, cur.pos.T, cur.pos.Series, cur.sentAt, cur.sent, cur.failed); err != nil {
		return fmt.Errorf("save remote-write cursor: %w", err)
	}
	for id, total := range cur.totals {
		if changed != nil && !changed[id] {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO remote_write_totals (url, series, total) VALUES (?, ?, ?)
			ON CONFLICT (url, series) DO UPDATE SET total = excluded.total`, c.url, id, total); err != nil {
			return fmt.Errorf("save remote-write totals: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save remote-write cursor: %w", err)
	}
	return nil
}

// simulated says, of every series, whether its source is a simulated one
// (sensors.Simulated): what its counter counts, as the history deletes a
// series' counters when its source changes kind (a measured source takes
// a series the demo filled) or it is forgotten.
func (c *cursorDB) simulated(ctx context.Context) (map[int64]bool, error) {
	rows, err := c.db.QueryContext(ctx, "SELECT id, source FROM series")
	if err != nil {
		return nil, fmt.Errorf("read series' sources: %w", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		var src string
		if err := rows.Scan(&id, &src); err != nil {
			return nil, fmt.Errorf("read series' sources: %w", err)
		}
		out[id] = sensors.Simulated(src)
	}
	return out, rows.Err()
}

// Kept is a store's cursor as the database has it, for climated doctor.
type Kept struct {
	Found    bool // false: nothing was ever sent to this store
	Position history.Position
	SentAt   time.Time // the last request the store took; zero for none
	Sent     int64
	Failed   int64
}

// ReadKept reads the cursor of the store at storeURL from the history
// database at path, read-only, beside a running hub.
func ReadKept(ctx context.Context, path, storeURL string) (Kept, error) {
	c, err := openCursor(ctx, path, storeURL, true)
	if err != nil {
		return Kept{}, err
	}
	defer c.Close()
	cur, found, err := c.load(ctx)
	if err != nil || !found {
		return Kept{}, err
	}
	k := Kept{Found: true, Position: cur.pos, Sent: cur.sent, Failed: cur.failed}
	if cur.sentAt > 0 {
		k.SentAt = time.Unix(cur.sentAt, 0)
	}
	return k, nil
}
