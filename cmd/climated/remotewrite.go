package main

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/climated/climated/cmd/climated/internal/diskwatch"
	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
)

// flushHook is what a history flush calls once the parts that want to
// know are made: the remote write's Poke.
type flushHook struct{ f atomic.Pointer[func()] }

// flushed calls the hook, if there is one.
func (h *flushHook) flushed() {
	if f := h.f.Load(); f != nil {
		(*f)()
	}
}

// after is the history's OnFlush: the metrics and the disk watch hear of
// every flush, the hook of one that committed readings.
func (h *flushHook) after(m *metrics.Metrics, disk *diskwatch.Watch) func(time.Duration, int, error) {
	return func(d time.Duration, n int, err error) {
		m.OnFlush(d, n, err)
		disk.Flushed(err)
		if err == nil && n > 0 {
			h.flushed()
		}
	}
}

// startRemoteWrite makes a sender for each store of the configuration's
// remote_write (none when there is none), with their metrics, and starts
// each as a part of the hub, woken by every flush of the history.
func startRemoteWrite(ctx context.Context, d hubDeps) (remotewrite.Senders, error) {
	var ss remotewrite.Senders
	for _, c := range d.cfg.RemoteWrite {
		s, err := remotewrite.New(ctx, d.hub, remotewrite.Options{Config: c,
			CommitInterval: time.Duration(d.cfg.CommitInterval), Logger: d.log.With("component", "remote write", "url", c.URL)})
		if err != nil {
			for _, s := range ss {
				s.Close()
			}
			return nil, err
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 {
		return nil, nil
	}
	if err := d.metrics.Register(ss); err != nil {
		for _, s := range ss {
			s.Close()
		}
		return nil, err
	}
	poke := func() {
		for _, s := range ss {
			s.Poke()
		}
	}
	d.flush.f.Store(&poke)
	for _, s := range ss {
		d.hub.Start("remote write", func(ctx context.Context) error {
			defer s.Close()
			return s.Run(ctx)
		})
	}
	return ss, nil
}
