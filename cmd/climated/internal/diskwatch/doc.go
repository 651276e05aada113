// Package diskwatch warns before the database's disk fills: once in the
// log and on /healthz while the free space is below the limit, and once
// when it is back.
package diskwatch
