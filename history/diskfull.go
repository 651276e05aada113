package history

import (
	"errors"
	"fmt"
	"path/filepath"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/climated/climated/sensors"
)

// lowSpace is the free space under which a failing SQLite call is blamed
// on a full file system: SQLite needs a few pages for its journal and the
// WAL index, and a file system with less than this left is full for it.
const lowSpace = 1 << 20

// FullError says the file system holding the database has (almost) no
// space left, which is why SQLite failed: on open it reports a full disk
// only as an I/O error (SQLITE_IOERR_SHMSIZE, 4874: the WAL index cannot
// grow), which says nothing to someone whose SD card has filled up.
type FullError struct {
	Path        string // the database
	Free, Total uint64 // bytes available to the hub, and the file system's size
	Err         error  // what SQLite said
}

func (e *FullError) Error() string {
	return fmt.Sprintf("the file system holding %s is full (%s free of %s): free some space (old backups, logs, journal) or move the database with --db; SQLite said: %v",
		e.Path, FormatBytes(e.Free), FormatBytes(e.Total), e.Err)
}

func (e *FullError) Unwrap() error { return e.Err }

// Is makes a FullError sensors.ErrDiskFull: the writer holds the readings
// it could not write, and writes them once space is freed.
func (e *FullError) Is(target error) bool { return target == sensors.ErrDiskFull }

// explainFull returns err, a failure of SQLite on the database at path,
// as a FullError when SQLite said full or I/O error and the file system
// holding path has less than lowSpace free; otherwise err unchanged.
func explainFull(path string, err error) error {
	var se *sqlite.Error
	var full *FullError
	if err == nil || errors.As(err, &full) || !errors.As(err, &se) {
		return err
	}
	if c := se.Code() & 0xff; c != sqlite3.SQLITE_FULL && c != sqlite3.SQLITE_IOERR {
		return err
	}
	free, total, serr := DiskSpace(filepath.Dir(path))
	if serr != nil || free >= lowSpace {
		return err
	}
	return &FullError{Path: path, Free: free, Total: total, Err: err}
}

// DiskSpace returns the bytes available to an unprivileged writer in the
// file system holding dir, and that file system's size.
func DiskSpace(dir string) (free, total uint64, err error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, 0, err
	}
	return st.Bavail * uint64(st.Bsize), st.Blocks * uint64(st.Bsize), nil
}

// FormatBytes writes n in the largest binary unit that keeps it ≥ 1
// (KiB, MiB, GiB …), or in bytes below 1 KiB.
func FormatBytes(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// fullMsg is what the writer logs, once, while the file system is full.
const fullMsg = "the file system holding the history is full: serving what is recorded, new readings wait in memory until space is freed"

// sayFull reports whether err, a failed write of the writer, failed for
// a full file system (explainFull), and logs so once, until a write
// succeeds again, with how many readings wait in memory (pending).
func (w *writer) sayFull(err error, pending int) bool {
	var full *FullError
	if !errors.As(explainFull(w.path, err), &full) {
		return false
	}
	if !w.fullSaid {
		w.fullSaid = true
		w.log.Error(fullMsg, "err", full, "pending", pending, "max_pending", DefaultMaxPending)
	}
	return true
}

// room reports whether the file system holding the database has space
// again after writes failed for a full one: a statfs, cheap enough to ask
// on every tick and Flush, so that writing resumes within FlushInterval of
// space being freed rather than at the next back-off retry (up to
// DefaultMaxRetryInterval later).
func (w *writer) room() bool {
	free, _, err := DiskSpace(filepath.Dir(w.path))
	return err == nil && free >= lowSpace
}

// fullAtOpen says, as the writer starts, that the file system holding
// the database is full: the hub serves what it has recorded and keeps
// new readings in memory. The writer's first failed write then does not
// say it again.
func (w *writer) fullAtOpen() {
	free, total, err := DiskSpace(filepath.Dir(w.path))
	if err != nil || free >= lowSpace {
		return
	}
	w.fullSaid = true
	w.log.Error(fullMsg, "database", w.path, "free", FormatBytes(free), "size", FormatBytes(total), "max_pending", DefaultMaxPending,
		"fix", "free some space (old backups, logs, journal) or move the database with --db")
}
