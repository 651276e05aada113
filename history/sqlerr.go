package history

import (
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// rowFault reports whether err is about the row being written (a
// constraint, a value SQLite cannot store) rather than about the database
// (busy, locked, full, an I/O error, anything unknown). Only a row at fault
// is ever dropped: when in doubt the whole batch is kept for a later retry,
// so a database that refuses everything loses nothing.
func rowFault(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_CONSTRAINT, sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_TOOBIG, sqlite3.SQLITE_RANGE:
		return true
	}
	return false
}
