package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Tunables; Options fields left zero take these.
const (
	DefaultFlushInterval = time.Second
	DefaultBatchSize     = 2000
	DefaultBusyTimeout   = 5 * time.Second
	DefaultReaders       = 4
	// DefaultMaxPending bounds what the writer holds while the disk refuses
	// writes; beyond it the oldest readings are dropped, with a log line.
	DefaultMaxPending = 200_000
)

// Options configure a Store; nil means all defaults.
type Options struct {
	FlushInterval   time.Duration    // flush at least this often
	BatchSize       int              // flush as soon as this many readings wait (while writes succeed)
	Window          time.Duration    // recent past of every series read back at Open (climate.DefaultWindow)
	RawRetention    time.Duration    // raw readings are kept this long (DefaultRawRetention)
	RollupRetention time.Duration    // 5-minute buckets are kept this long (DefaultRollupRetention)
	Location        *time.Location   // local time for "since midnight"; nil means time.Local
	Outdoors        *Outdoors        // what outdoor zones' daily summaries add (degree days, sun times); nil: nothing
	Now             func() time.Time // clock; nil means time.Now
	BusyTimeout     time.Duration    // how long a write waits for a lock held by another process (DefaultBusyTimeout)
	// OnFlush, if set, is called by the writer after every flush with its
	// duration, the readings it wrote and its error (for metrics).
	OnFlush func(d time.Duration, n int, err error)
	Logger  *slog.Logger // nil discards
	// Command says the store is opened for one command (import, forget)
	// while the hub is stopped, not by the hub: when Location is not the
	// time zone the database keeps its daily summaries in, the store
	// leaves them in that zone (settleDayZone).
	Command bool
}

// Store is the history of every zone: a SQLite file and the writer
// goroutine that feeds it. The live state derived from it is package
// climate's (see Windows).
type Store struct {
	dayKey   string   // dayZoneKey of the store's time zone
	keepPace keepPace // the keeper's run sizes (the writer's goroutine's)
	opts     Options
	log      *slog.Logger
	path     string

	wdb *sql.DB // the writer's single connection
	rdb *sql.DB // readers' pool, query-only

	prepared preparedReads // the readers' hot queries

	opened  []climate.Window // read at Open, until Opened takes them
	knownMu sync.Mutex
	known   map[seriesKey]bool // series recorded or in the database

	// Shutdown: quit releases blocked Records, closing (under recMu) keeps
	// new ones out, then in is closed and the writer drains it.
	in         chan sensors.Batch
	quit       chan struct{}
	recMu      sync.RWMutex
	closing    bool
	closeOnce  sync.Once
	writerDone chan struct{}
	flushReq   chan chan error
	pingReq    chan chan error

	w *writer

	readOnly bool     // opened by OpenReadOnly: no writer
	lock     *os.File // the writer's lock (lockDB), released by Close

	// daysForeign: the kept daily summaries are in another time zone
	// than Location, left so for the hub (Options.Command): this store
	// neither reads nor keeps them.
	daysForeign bool
}

// Open opens (creating if needed) the database at path, brings its schema up
// to date, reads back the recent window of every series (see Opened) and
// starts the writer. It
// takes the writer's lock of the database: while another process holds it
// Open returns a *LockedError naming that process.
func Open(ctx context.Context, path string, opts *Options) (*Store, error) {
	abs, err := checkPath(path)
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	lock, err := lockDB(abs)
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	s, err := openLocked(ctx, path, opts)
	if err != nil {
		lock.Close()
		return nil, explainFull(abs, err)
	}
	s.lock = lock
	return s, nil
}

// openLocked is Open once the lock is held, so a damaged file is moved
// aside by its one writer only.
func openLocked(ctx context.Context, path string, opts *Options) (*Store, error) {
	s, err := openOnce(ctx, path, opts)
	if err == nil || !isCorrupt(err) || !hasSQLiteHeader(path) {
		return s, err
	}
	// A damaged database is moved aside, never deleted, and a fresh one
	// takes its place: the hub keeps recording, and the old file can be
	// salvaged (sqlite3 .recover) at leisure.
	moved, mvErr := moveAside(path, time.Now())
	if mvErr != nil {
		return nil, errors.Join(err, fmt.Errorf("move the damaged database aside: %w", mvErr))
	}
	s, err2 := openOnce(ctx, path, opts)
	if err2 != nil {
		return nil, errors.Join(err, err2)
	}
	s.log.Error("history database damaged: moved aside and started a fresh one", "moved_to", moved, "err", err)
	return s, nil
}

func openOnce(ctx context.Context, path string, opts *Options) (*Store, error) {
	s := newStore(path, opts)
	if err := s.open(ctx); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	if err := s.readOpened(ctx); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("open history %s: read back recent state: %w", path, err)
	}
	w, err := newWriter(ctx, s)
	if err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	s.w = w
	if err := s.settleDayZone(ctx); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	s.in = make(chan sensors.Batch, 64)
	s.flushReq = make(chan chan error)
	s.pingReq = make(chan chan error)
	go s.w.loop(s.in, s.flushReq, s.pingReq, s.writerDone)
	return s, nil
}

// newStore applies the defaults of opts.
func newStore(path string, opts *Options) *Store {
	s := &Store{path: path, known: map[seriesKey]bool{}, quit: make(chan struct{}), writerDone: make(chan struct{})}
	if opts != nil {
		s.opts = *opts
	}
	o := &s.opts
	if o.FlushInterval <= 0 {
		o.FlushInterval = DefaultFlushInterval
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Window <= 0 {
		o.Window = climate.DefaultWindow
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = DefaultBusyTimeout
	}
	if o.RawRetention <= 0 {
		o.RawRetention = DefaultRawRetention
	}
	if o.RollupRetention <= 0 {
		o.RollupRetention = DefaultRollupRetention
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s.dayKey = dayZoneKey(o.Location)
	s.log = o.Logger
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s
}

func dsn(path string, query url.Values) string {
	u := url.URL{Scheme: "file", Path: path, RawQuery: query.Encode()}
	return u.String()
}

func (s *Store) open(ctx context.Context) error {
	abs, err := filepath.Abs(s.path)
	if err != nil {
		return err
	}
	busy := fmt.Sprint(s.opts.BusyTimeout.Milliseconds())
	// NORMAL is safe in WAL mode: a power cut can lose the last commits
	// but never corrupts the file, and it spares the SD card a sync per
	// commit. 2 KiB pages (set when the file is created) halve what each
	// commit appends to the WAL; queries are as fast (BenchmarkSteadyWrites,
	// BenchmarkRangeYear).
	s.wdb, err = OpenSQLite(dsn(abs, url.Values{
		"_busy_timeout": {busy}, "_journal_mode": {"wal"}, "_synchronous": {"normal"}, "_txlock": {"immediate"}, "_pragma": {"page_size(2048)"},
	}))
	if err != nil {
		return err
	}
	s.wdb.SetMaxOpenConns(1)
	s.wdb.SetConnMaxIdleTime(0)
	if err := s.wdb.PingContext(ctx); err != nil {
		return explainOpen(err)
	}
	var mode string
	if err := s.wdb.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return explainOpen(err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, want wal (is the file on a file system without shared memory?)", mode)
	}
	if err := Migrate(ctx, s.wdb, OwnSchema); err != nil {
		return explainOpen(err)
	}
	s.rdb, err = OpenSQLite(dsn(abs, url.Values{"_busy_timeout": {busy}, "_query_only": {"1"}}))
	if err != nil {
		return err
	}
	s.rdb.SetMaxOpenConns(DefaultReaders)
	return s.rdb.PingContext(ctx)
}

// explainOpen turns SQLite's terse codes into what a user can act on.
func explainOpen(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "file is not a database"), strings.Contains(msg, "SQLITE_NOTADB"):
		return fmt.Errorf("the file exists but is not an SQLite database (%w)", err)
	case strings.Contains(msg, "unable to open database file"), strings.Contains(msg, "SQLITE_CANTOPEN"):
		return fmt.Errorf("cannot open or create the file: check the path and its permissions (%w)", err)
	case strings.Contains(msg, "readonly"), strings.Contains(msg, "SQLITE_READONLY"):
		return fmt.Errorf("the file or its directory is read-only (%w)", err)
	}
	return err
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Record validates the batch's readings and queues the valid ones for
// the writer, which commits them in one transaction with the batch's mark
// and states (see Marked, SourceState). It blocks while the writer's
// queue is full, returns ctx.Err() if ctx ends first and ErrStopped after
// Close. An error names every invalid reading; the valid ones are kept
// all the same.
func (s *Store) Record(ctx context.Context, b sensors.Batch) error {
	valid, invalid := Prepare(b.Readings)
	b.Readings = valid
	if err := s.RecordPrepared(ctx, b); err != nil {
		return err
	}
	return invalid
}

// Prepare splits readings into the valid ones, at the store's resolution
// of a second, and an error naming every invalid one (nil when none is).
func Prepare(readings []sensors.Reading) (valid []sensors.Reading, invalid error) {
	valid = make([]sensors.Reading, 0, len(readings))
	var errs []error
	for _, r := range readings {
		if err := r.Validate(); err != nil {
			errs = append(errs, err)
			continue
		}
		r.Time = r.Time.Truncate(time.Second)
		valid = append(valid, r)
	}
	return valid, errors.Join(errs...)
}

// RecordPrepared is Record for a batch whose readings Prepare returned as
// valid (the hub validates once, and hands the store what passed): it
// queues the batch for the writer goroutine (writer.loop).
func (s *Store) RecordPrepared(ctx context.Context, b sensors.Batch) error {
	if len(b.Readings) == 0 {
		return nil
	}
	if s.readOnly {
		return ErrReadOnly
	}
	s.recMu.RLock()
	defer s.recMu.RUnlock()
	if s.closing {
		return sensors.ErrStopped
	}
	select {
	case s.in <- b:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.quit:
		return sensors.ErrStopped
	}
	s.noteSeries(b.Readings)
	return nil
}

// Ping returns once the writer goroutine answers, without writing: a
// liveness check (the systemd watchdog) that costs the disk nothing.
func (s *Store) Ping(ctx context.Context) error { return s.ask(ctx, s.pingReq) }

// Flush writes every reading recorded so far before it returns, or returns
// the error of the attempt that failed. While writes fail it waits for the
// next paced retry (see DefaultMaxRetryInterval) rather than forcing one.
func (s *Store) Flush(ctx context.Context) error { return s.ask(ctx, s.flushReq) }

// ask sends a request to the writer goroutine and waits for its answer.
func (s *Store) ask(ctx context.Context, req chan chan error) error {
	if s.readOnly {
		return nil
	}
	reply := make(chan error, 1)
	select {
	case req <- reply:
	case <-s.writerDone:
		return sensors.ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops taking readings, flushes what waits, and closes the database.
// If the final flush does not finish before ctx ends, Close closes the
// databases all the same (the writer's last commit then fails and what it
// held is lost) and returns an error wrapping ctx.Err() that says so.
func (s *Store) Close(ctx context.Context) error {
	var err error
	s.closeOnce.Do(func() {
		close(s.quit)
		s.recMu.Lock()
		s.closing = true
		s.recMu.Unlock()
		if s.in != nil {
			close(s.in)
			select {
			case <-s.writerDone:
			case <-ctx.Done():
				err = fmt.Errorf("close history: final flush unfinished, databases closed without it: %w", ctx.Err())
			}
		}
		err = errors.Join(err, s.closeDBs())
		if s.lock != nil {
			// After the database: the next writer finds it closed.
			err = errors.Join(err, s.lock.Close())
		}
	})
	return err
}

func (s *Store) closeDBs() error {
	var errs []error
	if s.w != nil {
		errs = append(errs, s.w.close())
	}
	if s.rdb != nil {
		errs = append(errs, s.prepared.close(), s.rdb.Close())
	}
	if s.wdb != nil {
		errs = append(errs, s.wdb.Close())
	}
	return errors.Join(errs...)
}
