package main

import (
	"context"
	"sync/atomic"
	"time"

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

// startRemoteWrite makes the sender of the configuration's remote_write
// (nil when there is none), with its metrics, and starts it as a part of
// the hub, woken by every flush of the history.
func startRemoteWrite(ctx context.Context, d hubDeps) (*remotewrite.Sender, error) {
	if d.cfg.RemoteWrite == nil {
		return nil, nil
	}
	s, err := remotewrite.New(ctx, d.hub, remotewrite.Options{Config: *d.cfg.RemoteWrite,
		CommitInterval: time.Duration(d.cfg.CommitInterval), Logger: d.log.With("component", "remote write")})
	if err != nil {
		return nil, err
	}
	if err := d.metrics.Register(s); err != nil {
		s.Close()
		return nil, err
	}
	poke := s.Poke
	d.flush.f.Store(&poke)
	d.hub.Start("remote write", func(ctx context.Context) error {
		defer s.Close()
		return s.Run(ctx)
	})
	d.log.Info("remote write", "url", d.cfg.RemoteWrite.URL, "state", s.Status().State)
	return s, nil
}
