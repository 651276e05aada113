package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/climated/climated/cmd/climated/internal/diskwatch"
	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/sensors/field"
)

// flushHook tells the remote write's senders, once they are made, of
// the history's flushes: one that committed readings wakes them; while
// flushes fail (a full disk) the readings recorded since the last good
// one are in memory only, and the senders hold at that flush so as not
// to pass them by.
type flushHook struct {
	senders atomic.Pointer[remotewrite.Senders]
	lastOK  atomic.Int64 // Unix seconds of the last flush that succeeded
}

// after is the history's OnFlush: the metrics and the disk watch hear of
// every flush, the senders as above.
func (h *flushHook) after(m *metrics.Metrics, disk *diskwatch.Watch) func(time.Duration, int, error) {
	return func(d time.Duration, n int, err error) {
		m.OnFlush(d, n, err)
		disk.Flushed(err)
		ss := h.senders.Load()
		switch {
		case err != nil:
			if ss != nil {
				ss.Hold(time.Unix(h.lastOK.Load(), 0))
			}
		default:
			h.lastOK.Store(time.Now().Add(-d).Unix())
			if ss != nil {
				ss.Release()
			}
			if ss != nil && n > 0 {
				ss.Poke()
			}
		}
	}
}

// startRemoteWrite makes a sender for each store of the configuration's
// remote_write (none when there is none), with their metrics, and starts
// each as a part of the hub, woken by every flush of the history.
func startRemoteWrite(ctx context.Context, d hubDeps) (remotewrite.Senders, error) {
	var ss remotewrite.Senders
	for i, c := range d.cfg.RemoteWrite {
		if err := c.CheckFiles(); err != nil { // the hub's user reads them now
			ss.Close()
			return nil, field.Wrap(fmt.Sprintf("remote_write[%d]", i), ".", err)
		}
		s, err := remotewrite.New(ctx, d.hub, remotewrite.Options{Config: c,
			CommitInterval: time.Duration(d.cfg.CommitInterval), Logger: d.log.With("component", "remote write", "url", c.URL)})
		if err != nil {
			ss.Close()
			return nil, err
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 {
		return nil, nil
	}
	if err := d.metrics.Register(ss); err != nil {
		ss.Close()
		return nil, err
	}
	d.flush.senders.Store(&ss)
	for _, s := range ss {
		d.hub.Start("remote write", func(ctx context.Context) error {
			defer s.Close()
			return s.Run(ctx)
		})
	}
	return ss, nil
}
