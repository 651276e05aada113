// Package datacmd is climated's commands on the hub's database: backup
// and export beside a running hub, import and forget with it stopped (they
// must be its one writer), and alerts, the alert rules and what they
// fired, read beside it.
package datacmd
