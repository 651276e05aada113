package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/climated/climated/history"
)

// diskEvery is how often the running hub looks at the free space of the
// database's disk.
const diskEvery = time.Minute

// diskWatch warns before the database's disk fills: below min free (the
// doctor's limit, defaultMinFree) the history is about to stop being
// written, and readings would wait in memory. It says so once when the
// space falls below min (a warning in the log and on /healthz, which
// stays 200: the hub still works) and once when it is back above twice
// min, so that a disk hovering at the limit does not flood the log.
type diskWatch struct {
	dir string
	min uint64
	log *slog.Logger

	// nudge asks run to look now: a write failed, or succeeded again.
	nudge   chan struct{}
	failing atomic.Bool // the latest flush failed

	mu          sync.Mutex
	low         bool
	free, total uint64 // at the last look
}

// diskFix is what to do about a disk almost full.
const diskFix = "free some space (old backups, logs, the journal) or shorten retention: in the configuration"

func newDiskWatch(database string, min uint64, log *slog.Logger) *diskWatch {
	return &diskWatch{dir: filepath.Dir(database), min: min, log: log, nudge: make(chan struct{}, 1)}
}

// flushed hears of every flush of the history (its OnFlush): a failed
// write, and the first that succeeds after, make run look at once, so
// that /healthz does not tell, for up to a minute, the free space seen
// before the disk filled (or after it was freed).
func (d *diskWatch) flushed(err error) {
	if failed := err != nil; failed || d.failing.Load() {
		d.failing.Store(failed)
		select {
		case d.nudge <- struct{}{}:
		default:
		}
	}
}

// run looks now and then every interval until ctx ends.
func (d *diskWatch) run(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		d.look()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-d.nudge:
		}
	}
}

// look reads the free space and logs a crossing of the limit.
func (d *diskWatch) look() {
	free, total, err := history.DiskSpace(d.dir)
	if err != nil {
		return // the writer's own errors say more than a statfs failure
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	low := free < d.min || d.low && free < 2*d.min
	switch {
	case low && !d.low:
		d.log.Warn("disk almost full", "dir", d.dir, "free", history.FormatBytes(free), "total", history.FormatBytes(total), "limit", history.FormatBytes(d.min), "fix", diskFix)
	case !low && d.low:
		d.log.Info("disk space is back", "dir", d.dir, "free", history.FormatBytes(free))
	}
	d.low, d.free, d.total = low, free, total
}

// Warnings are what /healthz adds to a 200: the low disk, while it lasts.
func (d *diskWatch) Warnings() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.low {
		return nil
	}
	return []string{fmt.Sprintf("the disk holding the database (%s) has %s free of %s (the hub warns under %s): the history stops being written when it is full; %s",
		d.dir, history.FormatBytes(d.free), history.FormatBytes(d.total), history.FormatBytes(d.min), diskFix)}
}
