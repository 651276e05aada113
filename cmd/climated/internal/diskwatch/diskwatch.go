package diskwatch

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

// Every is how often the running hub looks at the free space of the
// database's disk.
const Every = time.Minute

// Watch warns before the database's disk fills: below min free (the
// doctor's limit, doctor.DefaultMinFree) the history is about to stop being
// written, and readings would wait in memory. It says so once when the
// space falls below min (a warning in the log and on /healthz, which
// stays 200: the hub still works) and once when it is back above twice
// min, so that a disk hovering at the limit does not flood the log.
type Watch struct {
	dir string
	min uint64
	log *slog.Logger

	// nudge asks Run to look now: a write failed, or succeeded again.
	nudge   chan struct{}
	failing atomic.Bool // the latest flush failed

	mu          sync.Mutex
	low         bool
	free, total uint64 // at the last look
}

// diskFix is what to do about a disk almost full.
const diskFix = "free some space (old backups, logs, the journal) or shorten retention: in the configuration"

// New watches the disk of database, with min bytes free as the limit.
func New(database string, min uint64, log *slog.Logger) *Watch {
	return &Watch{dir: filepath.Dir(database), min: min, log: log, nudge: make(chan struct{}, 1)}
}

// Flushed hears of every flush of the history (its OnFlush): a failed
// write, and the first that succeeds after, make Run look at once, so
// that /healthz does not tell, for up to a minute, the free space seen
// before the disk filled (or after it was freed).
func (d *Watch) Flushed(err error) {
	if failed := err != nil; failed || d.failing.Load() {
		d.failing.Store(failed)
		select {
		case d.nudge <- struct{}{}:
		default:
		}
	}
}

// Run looks now and then every interval until ctx ends.
func (d *Watch) Run(ctx context.Context, every time.Duration) {
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
func (d *Watch) look() {
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
func (d *Watch) Warnings() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.low {
		return nil
	}
	return []string{fmt.Sprintf("the disk holding the database (%s) has %s free of %s (the hub warns under %s): the history stops being written when it is full; %s",
		d.dir, history.FormatBytes(d.free), history.FormatBytes(d.total), history.FormatBytes(d.min), diskFix)}
}
