package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/climated/climated/internal/loglimit"
	"github.com/climated/climated/sensors"
)

// writer is the one goroutine that writes to the database. It owns the
// series ids and the prepared statements.
type writer struct {
	db    *sql.DB
	path  string // the database, for FullError
	log   *slog.Logger
	opts  *Options
	idsMu sync.Mutex // ids and srcs: the writer goroutine and an import share them
	ids   map[seriesKey]int64
	srcs  map[int64]string
	stmts struct {
		series, gauge, regauge, amount, source *sql.Stmt
		rollups                                []*sql.Stmt // one a tier of rollupTiers
		recentGauge, recentAmount              *sql.Stmt
	}

	failures int
	errLog   *loglimit.Limiter // write failures and refused readings, each kind every errLogEvery
	fullSaid bool              // the log said the file system is full; a write has not succeeded since
	full     bool              // the latest write failed for a full file system (FullError)

	dropped atomic.Int64 // readings the database refused, since Open

	prunedAt     time.Time
	pruneBacklog bool
	pace         compactPace // the size of the next compaction step
	compacting   bool        // a compaction has steps to take (compactDue)

	// What Store.Health reads from other goroutines: the error of the
	// latest flush while writes fail (nil once one succeeds), how many
	// readings the writer holds, and since when (Unix ns; 0 when none).
	failing      atomic.Pointer[writeFailure]
	waiting      atomic.Int64
	waitingSince atomic.Int64
}

// errLogEvery limits how often a persistent write failure is logged.
const errLogEvery = 30 * time.Second

func newWriter(ctx context.Context, s *Store) (*writer, error) {
	w := &writer{db: s.wdb, path: s.path, log: s.log.With("part", "writer"), opts: &s.opts,
		ids: make(map[seriesKey]int64), srcs: make(map[int64]string), errLog: loglimit.New(errLogEvery)}
	if err := w.loadSeries(ctx, s.wdb); err != nil {
		return nil, err
	}
	prep := []struct {
		dst **sql.Stmt
		sql string
	}{
		// Another process may have created the series since the ids were
		// loaded (an import beside the hub): its row is adopted, source
		// and all, rather than failing the batch on the unique key.
		{&w.stmts.series, "INSERT INTO series (zone, measurement, source) VALUES (?, ?, ?) ON CONFLICT (zone, measurement) DO UPDATE SET zone = excluded.zone RETURNING id, source"},
		{&w.stmts.gauge, "INSERT INTO raw (series, t, v) VALUES (?, ?, ?) ON CONFLICT (series, t) DO NOTHING"},
		{&w.stmts.regauge, "UPDATE raw SET v = ? WHERE series = ? AND t = ?"},
		{&w.stmts.amount, "INSERT INTO raw (series, t, v) VALUES (?, ?, ?) ON CONFLICT (series, t) DO UPDATE SET v = v + excluded.v"},
		{&w.stmts.source, "UPDATE series SET source = ? WHERE id = ?"},
		{&w.stmts.recentGauge, "INSERT INTO recent (t, series, v) VALUES (?, ?, ?) ON CONFLICT (t, series) DO UPDATE SET v = excluded.v"},
		{&w.stmts.recentAmount, "INSERT INTO recent (t, series, v) VALUES (?, ?, ?) ON CONFLICT (t, series) DO UPDATE SET v = v + excluded.v"},
	}
	w.stmts.rollups = make([]*sql.Stmt, len(rollupTiers))
	for i, tier := range rollupTiers {
		prep = append(prep, struct {
			dst **sql.Stmt
			sql string
		}{&w.stmts.rollups[i], rollupUpsert(tier.table)})
	}
	for _, p := range prep {
		var err error
		if *p.dst, err = s.wdb.PrepareContext(ctx, p.sql); err != nil {
			w.close()
			return nil, fmt.Errorf("prepare %q: %w", p.sql, err)
		}
	}
	w.fullAtOpen()
	return w, nil
}

// loadSeries reads every series into the writer's ids, those another
// process created since included.
func (w *writer) loadSeries(ctx context.Context, q querier) error {
	ids, err := readSeries(ctx, q)
	if err != nil {
		return fmt.Errorf("load series: %w", err)
	}
	w.idsMu.Lock()
	defer w.idsMu.Unlock()
	for id, r := range ids {
		w.ids[r.key], w.srcs[id] = id, r.source
	}
	return nil
}

func (w *writer) close() error {
	var errs []error
	for _, st := range append([]*sql.Stmt{w.stmts.series, w.stmts.gauge, w.stmts.regauge, w.stmts.amount, w.stmts.source,
		w.stmts.recentGauge, w.stmts.recentAmount}, w.stmts.rollups...) {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}

// loop batches what arrives on in and flushes it every FlushInterval or as
// soon as BatchSize readings wait; when in is closed it flushes the rest.
// While writes fail it retries on the retry timer alone, backing off
// (backoff): arrivals only join the queue, however many there are, so a
// full disk does not turn every message into a failing commit.
func (w *writer) loop(in <-chan recordItem, flush <-chan chan error, ping <-chan chan error, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(w.opts.FlushInterval)
	defer tick.Stop()
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	defer retry.Stop()
	ls := &loopState{w: w, in: in, retry: retry}
	defer ls.answer()
	for {
		select {
		case reply := <-flush:
			ls.flushAsked(reply)
			// The interval counts from the latest commit, whoever asked
			// for it: a reading still waits no longer than FlushInterval,
			// and a caller that commits often (the MQTT ingest, for its
			// acknowledgements) does not get the ticks' commits besides.
			tick.Reset(ls.w.opts.FlushInterval)
		case reply := <-ping:
			reply <- nil
		case it, ok := <-in:
			if !ok {
				ls.shutdown()
				return
			}
			ls.arrived(it)
		case <-retry.C:
			ls.flushNow()
			ls.answer()
		case <-tick.C:
			ls.ticked()
		}
	}
}

// loopState is what the writer's loop carries from one event to the next.
type loopState struct {
	w       *writer
	in      <-chan recordItem
	retry   *time.Timer
	pending queue
	// waiters are the Flush calls to answer after the next attempt; their
	// reply channels have room for the answer.
	waiters []chan error
}

// flushNow writes what is pending and arms the retry timer while writes
// fail.
func (ls *loopState) flushNow() {
	if ls.w.flush(&ls.pending); ls.w.failures > 0 {
		ls.retry.Reset(ls.w.backoff())
	} else {
		ls.retry.Stop()
	}
}

// answer tells the waiting Flush calls the outcome of the latest attempt.
func (ls *loopState) answer() {
	var err error
	if len(ls.pending.rs) > 0 {
		err = fmt.Errorf("%d readings not written: the database refused them", len(ls.pending.rs))
		if f := ls.w.failing.Load(); f != nil {
			// A FullError when the disk is full: sensors.ErrDiskFull
			// tells the caller the readings wait in memory.
			err = fmt.Errorf("%w: %w", err, explainFull(ls.w.path, f.err))
		}
	}
	for _, r := range ls.waiters {
		r <- err
	}
	ls.waiters = ls.waiters[:0]
}

// flushAsked handles a Flush call.
func (ls *loopState) flushAsked(reply chan error) {
	// Take what is queued first, so the flush covers every Record
	// that returned before it was asked for.
	ls.drain()
	// While writes fail, a flush asked for waits for the next
	// paced retry and gets its outcome: callers that ask often
	// (the MQTT ingest, once its acknowledgements wait) must not
	// bring back the retry storm the back-off prevents. A full disk is
	// told at once instead (sensors.ErrDiskFull: the readings wait in
	// memory), with a write first if space is back: a statfs says so
	// without a failing commit.
	ls.waiters = append(ls.waiters, reply)
	switch {
	case ls.w.failures == 0:
		ls.flushNow()
		ls.answer()
	case ls.w.full:
		ls.retryIfRoom()
		ls.answer()
	}
}

// retryIfRoom writes what waits if the disk that was full has space
// again.
func (ls *loopState) retryIfRoom() {
	if ls.w.room() {
		ls.flushNow()
	}
}

// drain holds what is queued on in without waiting for more.
func (ls *loopState) drain() {
	for {
		select {
		case it, ok := <-ls.in:
			if !ok {
				return
			}
			ls.w.hold(&ls.pending, it)
		default:
			return
		}
	}
}

// arrived holds it and flushes once a batch is full, unless writes fail.
func (ls *loopState) arrived(it recordItem) {
	ls.w.hold(&ls.pending, it)
	if ls.w.failures == 0 && len(ls.pending.rs) >= ls.w.opts.BatchSize {
		ls.flushNow()
	}
}

// shutdown writes the rest once in is closed, and has the WAL emptied
// when the database closes (see keepWAL).
func (ls *loopState) shutdown() {
	if ls.w.flush(&ls.pending); len(ls.pending.rs) > 0 {
		ls.w.log.Error("readings lost at shutdown: the database refused them", "count", len(ls.pending.rs))
	}
	ls.w.emptyWALOnClose()
}

// ticked flushes, compacts once nothing waits, and runs retention; while
// writes fail it leaves the turn to the retry timer.
func (ls *loopState) ticked() {
	w := ls.w
	if w.failures > 0 {
		// The retry timer's turn, unless the disk was full and has
		// space again: writing resumes within a tick of it.
		if w.full {
			ls.retryIfRoom()
			ls.answer()
		}
		return
	}
	ls.flushNow()
	if len(ls.pending.rs) == 0 {
		w.maybeCompact()
	}
	w.maybePrune()
}

// maybeCompact takes a compaction step once one is due (compactDue) and
// until recent holds nothing from before the current hour; a full disk is
// logged once (sayFull).
func (w *writer) maybeCompact() {
	ctx, now := context.Background(), w.opts.Now()
	due, err := w.compactDue(ctx, now)
	if err == nil && due {
		w.compacting, err = w.compactStep(ctx, now)
	}
	if err != nil && !w.sayFull(err, 0) {
		w.log.Warn("compact recent readings", "err", err)
	}
}

// maybePrune runs retention once every pruneEvery, and on every tick while
// a backlog remains.
func (w *writer) maybePrune() {
	now := w.opts.Now()
	if !w.pruneBacklog && now.Sub(w.prunedAt) < pruneEvery {
		return
	}
	w.prunedAt = now
	finished, err := w.prune(context.Background(), now)
	if err == nil {
		err = w.pruneMarks(context.Background())
	}
	if err != nil && !w.sayFull(err, 0) {
		w.log.Warn("retention", "err", err)
	}
	w.pruneBacklog = !finished
}

// flush writes q in transactions of whole Record calls, each with the
// calls' marks, as many calls as fit in BatchSize readings (a larger call
// is a transaction of its own), and leaves in q what is still to be
// written: nothing on success, and on failure the transaction that failed
// and those after it (bounded), so that a retry takes them. What waited
// through an outage (up to DefaultMaxPending) is written a batch at a
// time: one transaction of everything would need room in the WAL for all
// of it at once, on a disk that has just been full, and would hold the
// write lock the whole time.
func (w *writer) flush(q *queue) {
	done := 0
	for ci := 0; ci < len(q.calls); {
		end, n, next := q.txFrom(ci, w.opts.BatchSize)
		if !w.flushBatch(q.rs[done:end], n, len(q.rs)-done) {
			q.dropFront(done)
			w.bound(q, DefaultMaxPending)
			return
		}
		done, ci = end, next
	}
	q.reset()
}

// flushBatch writes rs and marks in one transaction and reports whether
// it did; waiting is how many readings the writer holds, rs among them.
func (w *writer) flushBatch(rs []sensors.Reading, notes notes, waiting int) bool {
	start := time.Now()
	n, err := w.write(rs, notes)
	if w.opts.OnFlush != nil {
		w.opts.OnFlush(time.Since(start), n, err)
	}
	if err == nil {
		if w.failures > 0 {
			w.log.Info("writing history again", "after_failures", w.failures)
		}
		w.failures = 0
		w.fullSaid, w.full = false, false
		w.failing.Store(nil)
		if w.waiting.Store(int64(waiting - len(rs))); waiting == len(rs) {
			w.waitingSince.Store(0)
		}
		return true
	}
	w.failures++
	var full *FullError
	w.full = errors.As(explainFull(w.path, err), &full)
	if f := w.failing.Load(); f == nil {
		w.failing.Store(&writeFailure{since: time.Now(), err: err})
	} else {
		w.failing.Store(&writeFailure{since: f.since, err: err})
	}
	// A full disk is said once until writing works again (sayFull).
	if !w.sayFull(err, waiting) {
		if ok, _ := w.errLog.Allow("write", time.Now()); ok {
			w.log.Error("write history; will retry", "err", err, "pending", waiting, "failures", w.failures, "retry_in", w.backoff())
		}
	}
	return false
}

// write writes rs and marks in one transaction. When the database refuses
// a row for the row's own sake, the batch is written again a row at a
// time so that the row cannot hold up the others; it returns how many
// readings were written.
func (w *writer) write(rs []sensors.Reading, n notes) (int, error) {
	err := w.writeBatch(rs, n)
	if err == nil {
		return len(rs), nil
	}
	if !rowFault(err) {
		return 0, err
	}
	return w.writeRows(rs, n)
}

func (w *writer) writeBatch(rs []sensors.Reading, n notes) error {
	ctx := context.Background()
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	tw := newTxState()
	if err := w.writeRecent(ctx, tx, tw, rs); err != nil {
		return err
	}
	if err := w.writeNotes(ctx, tx, n); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	w.adopt(tw)
	return nil
}

// writeRecent writes rs into the recent table, the cheap path of every
// flush; compact moves them on.
func (w *writer) writeRecent(ctx context.Context, tx *sql.Tx, tw *txState, rs []sensors.Reading) error {
	gauge, amount := tx.Stmt(w.stmts.recentGauge), tx.Stmt(w.stmts.recentAmount)
	for _, r := range rs {
		id, err := w.seriesID(ctx, tx, tw, r)
		if err != nil {
			return err
		}
		st := gauge
		if info, _ := sensors.Lookup(r.Measurement); info.Kind == sensors.Amount {
			st = amount
		}
		if _, err := st.ExecContext(ctx, r.Time.Unix(), id, encode(r.Measurement, r.Value)); err != nil {
			return fmt.Errorf("insert %s/%s at %d: %w", r.Zone, r.Measurement, r.Time.Unix(), err)
		}
	}
	return nil
}

func (w *writer) adopt(tw *txState) {
	w.idsMu.Lock()
	defer w.idsMu.Unlock()
	for k, id := range tw.created {
		w.ids[k] = id
	}
	for id, src := range tw.sources {
		w.srcs[id] = src
	}
}

// seriesID finds or creates the series of r within tx, and records a
// change of its source.
func (w *writer) seriesID(ctx context.Context, tx *sql.Tx, tw *txState, r sensors.Reading) (int64, error) {
	k := seriesKey{r.Zone, r.Measurement}
	w.idsMu.Lock()
	id, ok := w.ids[k]
	known := w.srcs[id]
	w.idsMu.Unlock()
	if !ok {
		if id, ok = tw.id(k); !ok {
			var src string
			if err := tx.Stmt(w.stmts.series).QueryRowContext(ctx, r.Zone, string(r.Measurement), r.Source).Scan(&id, &src); err != nil {
				return 0, fmt.Errorf("insert series %s/%s: %w", r.Zone, r.Measurement, err)
			}
			tw.created[k] = id
			tw.sources[id] = src
		}
	}
	if src, seen := tw.source(id); r.Source != "" && (seen && src != r.Source || !seen && known != r.Source) {
		if _, err := tx.Stmt(w.stmts.source).ExecContext(ctx, r.Source, id); err != nil {
			return 0, fmt.Errorf("update source of %s/%s: %w", r.Zone, r.Measurement, err)
		}
		tw.sources[id] = r.Source
	}
	return id, nil
}

// writeTx writes rs within tx into raw and the rollups: compaction and
// import use it.
func (w *writer) writeTx(ctx context.Context, tx *sql.Tx, tw *txState, rs []sensors.Reading) error {
	gauge, amount := tx.Stmt(w.stmts.gauge), tx.Stmt(w.stmts.amount)
	rolls := newRollups()
	for _, r := range rs {
		id, err := w.seriesID(ctx, tx, tw, r)
		if err != nil {
			return err
		}
		t, v := r.Time.Unix(), encode(r.Measurement, r.Value)
		info, _ := sensors.Lookup(r.Measurement)
		if info.Kind == sensors.Amount {
			if _, err := amount.ExecContext(ctx, id, t, v); err != nil {
				return fmt.Errorf("insert %s/%s at %d: %w", r.Zone, r.Measurement, t, err)
			}
		} else {
			res, err := gauge.ExecContext(ctx, id, t, v)
			if err != nil {
				return fmt.Errorf("insert %s/%s at %d: %w", r.Zone, r.Measurement, t, err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				// A second value for the same instant replaces the first in
				// the raw tier; the rollups keep the first.
				if _, err := tx.Stmt(w.stmts.regauge).ExecContext(ctx, v, id, t); err != nil {
					return fmt.Errorf("replace %s/%s at %d: %w", r.Zone, r.Measurement, t, err)
				}
				continue
			}
		}
		// The rollups hold the value as stored, so every tier agrees.
		rolls.add(id, t, decode(r.Measurement, float64(v)), info.Kind == sensors.Direction)
	}
	if err := rolls.write(ctx, w.rollupStmts(tx)); err != nil {
		return err
	}
	return nil
}

type writeFailure struct {
	since time.Time
	err   error
}

// rollupStmts are the rollup tiers' upserts within tx.
func (w *writer) rollupStmts(tx *sql.Tx) []*sql.Stmt {
	stmts := make([]*sql.Stmt, len(w.stmts.rollups))
	for i, st := range w.stmts.rollups {
		stmts[i] = tx.Stmt(st)
	}
	return stmts
}
