package history

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// maxPrepared bounds the readers' prepared statements: the queries of
// the read paths are a few dozen texts (a tier's table and columns, min
// or max), and a text past the bound is run unprepared.
const maxPrepared = 256

// preparedReads keeps the readers' queries prepared, one statement per
// query text on the readers' pool (database/sql prepares it again on each
// connection that runs it): a year's daily summaries, records and
// reports run hundreds of small queries, and parsing and planning each
// anew took a sixth of their time.
type preparedReads struct {
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// stmt is q prepared on db, nil when it cannot be (past maxPrepared, or
// the prepare failed: the query run unprepared then says why).
func (p *preparedReads) stmt(ctx context.Context, db *sql.DB, q string) *sql.Stmt {
	p.mu.Lock()
	st, ok := p.stmts[q]
	full := len(p.stmts) >= maxPrepared
	p.mu.Unlock()
	if ok || full {
		return st
	}
	// Prepared without the lock, which would hold every reader while this
	// one waits for a connection.
	st, err := db.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if had, ok := p.stmts[q]; ok || len(p.stmts) >= maxPrepared {
		st.Close() // another reader prepared it first, or the bound is reached
		return had
	}
	if p.stmts == nil {
		p.stmts = map[string]*sql.Stmt{}
	}
	p.stmts[q] = st
	return st
}

// close closes every statement, before the pool is closed.
func (p *preparedReads) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, st := range p.stmts {
		errs = append(errs, st.Close())
	}
	p.stmts = nil
	return errors.Join(errs...)
}

// readRow runs q on the readers' pool, prepared once.
func (s *Store) readRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := s.prepared.stmt(ctx, s.rdb, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.rdb.QueryRowContext(ctx, q, args...)
}

// readRows runs q on the readers' pool, prepared once.
func (s *Store) readRows(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := s.prepared.stmt(ctx, s.rdb, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return s.rdb.QueryContext(ctx, q, args...)
}
