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
	// back is, while the clock is behind readings sent, where those lie
	// (remote_write_set_back, step 003_set_back); pos is then the last
	// reading sent among those recorded since. nil otherwise.
	back *setBack
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
	if cur.back, err = c.loadSetBack(ctx); err != nil {
		return cur, false, err
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

// loadSetBack reads the way over the readings sent ahead of the clock;
// nil when there is none.
func (c *cursorDB) loadSetBack(ctx context.Context) (*setBack, error) {
	var b setBack
	err := c.db.QueryRowContext(ctx, "SELECT ahead_t, ahead_series, from_t FROM remote_write_set_back WHERE url = ?", c.url).
		Scan(&b.ahead.T, &b.ahead.Series, &b.from)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read remote-write set-back: %w", err)
	}
	return &b, nil
}

// saveSetBack writes b, or deletes the row when b is nil, in tx.
func (c *cursorDB) saveSetBack(ctx context.Context, tx *sql.Tx, b *setBack) error {
	var err error
	if b == nil {
		_, err = tx.ExecContext(ctx, "DELETE FROM remote_write_set_back WHERE url = ?", c.url)
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO remote_write_set_back (url, ahead_t, ahead_series, from_t) VALUES (?, ?, ?, ?)
			ON CONFLICT (url) DO UPDATE SET ahead_t = excluded.ahead_t, ahead_series = excluded.ahead_series, from_t = excluded.from_t`,
			c.url, b.ahead.T, b.ahead.Series, b.from)
	}
	if err != nil {
		return fmt.Errorf("save remote-write set-back: %w", err)
	}
	return nil
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
	if err := c.saveSetBack(ctx, tx, cur.back); err != nil {
		return err
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
	// SentAhead is, while the clock is behind readings sent (it was set
	// back), the last of them; zero otherwise.
	SentAhead history.Position
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
	if cur.back != nil {
		k.SentAhead = cur.back.ahead
	}
	if cur.sentAt > 0 {
		k.SentAt = time.Unix(cur.sentAt, 0)
	}
	return k, nil
}
