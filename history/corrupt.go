package history

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// isCorrupt reports whether err says the database file is damaged.
func isCorrupt(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "malformed") || strings.Contains(msg, "SQLITE_CORRUPT") ||
		strings.Contains(msg, "file is not a database") || strings.Contains(msg, "SQLITE_NOTADB")
}

// hasSQLiteHeader tells a damaged database from some other file that was
// named as one, which is refused and left alone.
func hasSQLiteHeader(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	if _, err := io.ReadFull(f, head); err != nil {
		return false
	}
	return bytes.Equal(head, sqliteHeader)
}

// moveAside renames the database and its WAL and shared-memory files to
// "<path>.corrupt-<UTC time>" and returns the new name of the database.
func moveAside(path string, now time.Time) (string, error) {
	suffix := ".corrupt-" + now.UTC().Format("20060102T150405Z")
	to := path + suffix
	if err := os.Rename(path, to); err != nil {
		return "", err
	}
	for _, ext := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+ext, to+ext); err != nil && !errors.Is(err, os.ErrNotExist) {
			return to, fmt.Errorf("move %s: %w", path+ext, err)
		}
	}
	return to, nil
}
