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

	stateReq chan stateAsk // LatestState's questions

	prunedAt     time.Time
	pruneBacklog bool
	pace         compactPace // the size of the next compaction step
	compacting   bool        // a compaction has steps to take (compactDue)
	days         dayKeeper   // the kept daily summaries (daykeep_writer.go)
	daysKept     bool        // every day that can be kept is (until days.stale or a new day); the writer's goroutine's

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
		ids: make(map[seriesKey]int64), srcs: make(map[int64]string), errLog: loglimit.New(errLogEvery), stateReq: make(chan stateAsk)}
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
		id, c, err := w.seriesID(ctx, tx, tw, r)
		if err != nil {
			return err
		}
		if c == skipped {
			continue
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
// change of its source; c says whether r is written (claim).
func (w *writer) seriesID(ctx context.Context, tx *sql.Tx, tw *txState, r sensors.Reading) (id int64, c claimed, err error) {
	k := seriesKey{r.Zone, r.Measurement}
	w.idsMu.Lock()
	id, ok := w.ids[k]
	known := w.srcs[id]
	w.idsMu.Unlock()
	if !ok {
		if id, ok = tw.id(k); !ok {
			var src string
			if err := tx.Stmt(w.stmts.series).QueryRowContext(ctx, r.Zone, string(r.Measurement), r.Source).Scan(&id, &src); err != nil {
				return 0, kept, fmt.Errorf("insert series %s/%s: %w", r.Zone, r.Measurement, err)
			}
			tw.created[k] = id
			tw.sources[id] = src
		}
	}
	cur, seen := tw.source(id)
	if !seen {
		cur = known
	}
	if r.Source == "" || r.Source == cur {
		return id, kept, nil
	}
	if c, err = claim(ctx, tx, id, cur, r); c == skipped || err != nil {
		return id, c, err
	}
	if _, err := tx.Stmt(w.stmts.source).ExecContext(ctx, r.Source, id); err != nil {
		return 0, kept, fmt.Errorf("update source of %s/%s: %w", r.Zone, r.Measurement, err)
	}
	tw.sources[id] = r.Source
	if c == taken {
		w.days.stale.Store(true)
	}
	return id, c, nil
}

// writeTx writes rs within tx into raw and the rollups: compaction and
// import use it. tw counts what it wrote per series (txState.written),
// and what it left out as summarised already (summarised.go).
func (w *writer) writeTx(ctx context.Context, tx *sql.Tx, tw *txState, rs []sensors.Reading, am amounts) error {
	gauge, add := tx.Stmt(w.stmts.gauge), tx.Stmt(w.stmts.amount)
	old := newSummarised(rs)
	tipped := amountsAt{}
	rolls := newRollups()
	days := touchedDays{}
	for _, r := range rs {
		id, ok, err := w.admit(ctx, tx, tw, old, rolls, r)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		t, v := r.Time.Unix(), encode(r.Measurement, r.Value)
		info, _ := sensors.Lookup(r.Measurement)
		amount := add
		if am == replaceAmounts && info.Kind == sensors.Amount && !tipped.again(id, t) {
			amount = nil // the file's total at the instant replaces the history's
		}
		first, err := w.insertRaw(ctx, tx, gauge, amount, id, r, v)
		if err != nil {
			return err
		}
		tw.written[id]++
		if !first {
			days.add(r, w.opts.Location) // the raw tier's value changed
			continue
		}
		// The rollups hold the value as stored, so every tier agrees.
		rolls.add(id, t, decode(r.Measurement, float64(v)), info.Kind == sensors.Direction)
		days.add(r, w.opts.Location)
	}
	if err := days.unkeep(ctx, tx, w.days.foreign); err != nil {
		return err
	}
	if len(days) > 0 {
		w.days.stale.Store(true) // compaction, and imports from other goroutines
	}
	if err := rolls.write(ctx, w.rollupStmts(tx)); err != nil {
		return err
	}
	return nil
}

// admit finds or creates r's series and says whether r is written: not
// when its claim skips it, nor when it falls into a bucket the history
// summarises already (summarised.go), which tw counts.
func (w *writer) admit(ctx context.Context, tx *sql.Tx, tw *txState, old *summarised, rolls *rollups, r sensors.Reading) (id int64, ok bool, err error) {
	id, c, err := w.seriesID(ctx, tx, tw, r)
	if err != nil || c == skipped {
		return id, false, err
	}
	if c == taken {
		// What the batch gave it before is gone too, and what was read
		// of its buckets.
		rolls.drop(id)
		old.forget(id)
		tw.written[id] = 0
	}
	held, err := old.sealed(ctx, tx, id, r.Time.Unix())
	if held {
		tw.summarised++
	}
	return id, !held && err == nil, err
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
