// Package memtrim gives memory back to the OS after a burst of load (many
// clients at once, a backfill): the Go runtime alone keeps what it grew
// into for minutes, and on a Pi that memory belongs to the rest of the
// house.
package memtrim
