package alerts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/climated/climated/history"
)

// Tunables of DB; DBOptions fields left zero take these.
const (
	DefaultBusyTimeout = 5 * time.Second      // as the history's writer
	DefaultMaxHistory  = 10_000               // events kept
	DefaultHistoryAge  = 365 * 24 * time.Hour // events older than this are dropped
)

// DBOptions configure a DB; nil means all defaults.
type DBOptions struct {
	BusyTimeout time.Duration    // how long a write waits for the history's writer
	MaxHistory  int              // events kept (DefaultMaxHistory)
	HistoryAge  time.Duration    // events kept this long (DefaultHistoryAge)
	Now         func() time.Time // clock for the age bound; nil means time.Now
	// ReadOnly opens the tables for reading beside the hub that writes
	// them (climated mcp, climated alerts): the connection never writes,
	// and the methods that would fail.
	ReadOnly bool
}

// DB keeps rules, states and the alert history in the history's SQLite
// file, in the tables of its part (Schema, migrations/). It has its own connection
// rather than going through history.Store: the alerts write a few rows on
// a change of state, and a connection of their own with the same pragmas
// (WAL, busy timeout, immediate transactions) waits for the history's
// writer as another process would, without touching its batching.
type DB struct {
	db   *sql.DB
	opts DBOptions
}

var _ Store = (*DB)(nil)

// ErrNoSchema says the file is not a history yet (history.Open makes it
// first), or, to a read-only user, that its alert tables are not made or
// not up to date.
var ErrNoSchema = errors.New("the database has no alert tables of this climated yet")

// OpenDB opens the alert tables of the history database at path.
func OpenDB(ctx context.Context, path string, opts *DBOptions) (*DB, error) {
	d := &DB{}
	if opts != nil {
		d.opts = *opts
	}
	o := &d.opts
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = DefaultBusyTimeout
	}
	if o.MaxHistory <= 0 {
		o.MaxHistory = DefaultMaxHistory
	}
	if o.HistoryAge <= 0 {
		o.HistoryAge = DefaultHistoryAge
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open alerts %s: %w", path, err)
	}
	if err := history.FileMade(abs); err != nil {
		return nil, fmt.Errorf("open alerts %s: %w (%w)", path, ErrNoSchema, err)
	}
	q := url.Values{"_busy_timeout": {fmt.Sprint(o.BusyTimeout.Milliseconds())}, "_journal_mode": {"wal"}, "_synchronous": {"normal"}, "_txlock": {"immediate"}}
	if o.ReadOnly {
		q = url.Values{"_busy_timeout": q["_busy_timeout"], "mode": {"ro"}, "_query_only": {"1"}}
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: q.Encode()}
	if d.db, err = history.OpenSQLite(u.String()); err != nil {
		return nil, fmt.Errorf("open alerts %s: %w", path, err)
	}
	d.db.SetMaxOpenConns(1)
	if err := d.check(ctx, o.ReadOnly); err != nil {
		d.db.Close()
		return nil, fmt.Errorf("open alerts %s: %w", path, err)
	}
	return d, nil
}

// check confirms WAL and brings the alert tables up to date (a read-only
// user checks that they are).
func (d *DB) check(ctx context.Context, readOnly bool) error {
	var mode string
	if err := d.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, want wal", mode)
	}
	migrate := history.Migrate
	if readOnly {
		migrate = history.CheckSchema
	}
	err := migrate(ctx, d.db, Schema)
	if errors.Is(err, history.ErrNoHistory) || errors.Is(err, history.ErrSchemaBehind) {
		return fmt.Errorf("%w (%w)", ErrNoSchema, err)
	}
	return err
}

// Close closes the connection.
func (d *DB) Close() error { return d.db.Close() }

// AddRule keeps r and returns its ID, "u" and the row's number. It checks
// r's name only: Engine.Create validates the rest against the zones.
func (d *DB) AddRule(ctx context.Context, r Rule) (string, error) {
	if err := validateName(r.Name); err != nil {
		return "", err
	}
	spec, err := marshalRule(r)
	if err != nil {
		return "", err
	}
	res, err := d.db.ExecContext(ctx, "INSERT INTO alert_rules (spec, created) VALUES (?, ?)", spec, d.opts.Now().Unix())
	if err != nil {
		return "", err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("u%d", id), nil
}

// DeleteRule deletes rule id and its states; its history stays.
func (d *DB) DeleteRule(ctx context.Context, id string) error {
	n, ok := userNumber(id)
	if !ok {
		return fmt.Errorf("%w %q", ErrNoRule, id)
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM alert_rules WHERE id = ?", n); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM alert_state WHERE rule = ?", id); err != nil {
		return err
	}
	return tx.Commit()
}

// Rules returns the user rules in the order they were created.
func (d *DB) Rules(ctx context.Context) ([]Rule, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT id, spec FROM alert_rules ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Rule
	for rows.Next() {
		var id int64
		var spec string
		if err := rows.Scan(&id, &spec); err != nil {
			return nil, err
		}
		r, err := unmarshalRule(spec)
		if err != nil {
			return nil, fmt.Errorf("rule u%d: %w", id, err)
		}
		r.ID = fmt.Sprintf("u%d", id)
		r.Name = safeName(r.Name) // kept before names were checked
		out = append(out, r)
	}
	return out, rows.Err()
}

func userNumber(id string) (int64, bool) {
	var n int64
	_, err := fmt.Sscanf(id, "u%d", &n)
	return n, err == nil && fmt.Sprintf("u%d", n) == id
}
