package history

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the database to path (VACUUM INTO):
// it reads one snapshot while writers go on, and the copy is compact and
// needs no WAL. An existing file is never overwritten.
func (s *Store) Backup(ctx context.Context, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err == nil {
		return fmt.Errorf("backup: %s exists: choose a new file", abs)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("backup: %w", err)
	}
	// A connection of its own: the readers' pool is query-only, which
	// VACUUM INTO (it writes the copy) is not.
	src, err := filepath.Abs(s.path)
	if err != nil {
		return err
	}
	db, err := OpenSQLite(dsn(src, url.Values{"mode": {"ro"}, "_busy_timeout": {fmt.Sprint(s.opts.BusyTimeout.Milliseconds())}}))
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", abs); err != nil {
		os.Remove(abs)
		return fmt.Errorf("backup to %s: %w", abs, explainOpen(err))
	}
	return nil
}
