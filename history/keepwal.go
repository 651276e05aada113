package history

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"modernc.org/sqlite"
)

// OpenSQLite opens the SQLite database named by dsn like sql.Open, with
// every connection keeping the WAL and its index (the -wal and -shm files)
// when it closes (SQLITE_FCNTL_PERSIST_WAL): the last one to close would
// otherwise delete them, and a hub restarted on a full file system could
// not create the -shm again (SQLITE_IOERR_SHMSIZE), so it could not even
// read what it had recorded. Kept, they are reused in place: the next
// open needs no new block, and the WAL's old frames are room for new
// commits. Every connection to a hub's database opens through it (the
// alerts' and read-only ones too): whichever closes last keeps them.
func OpenSQLite(dsn string) (*sql.DB, error) {
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(keepWAL{c}), nil
}

// keepWAL is a connector whose connections keep the WAL files on close.
type keepWAL struct{ driver.Connector }

func (k keepWAL) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := k.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	fc, ok := c.(sqlite.FileControl)
	if !ok {
		c.Close()
		return nil, errors.New("the SQLite driver cannot keep the WAL (no FileControl)")
	}
	if _, err := fc.FileControlPersistWAL("main", 1); err != nil {
		c.Close()
		return nil, fmt.Errorf("keep the WAL: %w", err)
	}
	return c, nil
}

// emptyWALOnClose has the writer's connection truncate the WAL it keeps
// to nothing when it closes, once its frames are in the database: a
// database stopped cleanly then has no frames beside it that could be
// replayed onto another file put in its place (a backup restored), as
// without keepWAL. Only the -shm keeps its size, which is what a restart
// on a full disk needs. A limit set while running would truncate the WAL
// after every checkpoint instead.
func (w *writer) emptyWALOnClose() {
	if _, err := w.db.Exec("PRAGMA journal_size_limit = 0"); err != nil {
		w.log.Warn("keep the WAL small at close", "err", err)
	}
}
