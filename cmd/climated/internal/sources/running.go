package sources

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mqtt/ingest"
)

// Running owns the sources and runners of the current configuration: it
// starts a set, and stops it (waiting for every goroutine it started)
// before a reload starts the next one. Health, metrics and the MCP server
// read the current set through it, so a reload reaches them too.
type Running struct {
	log   *slog.Logger
	hub   *hub.Hub    // what the sources record into
	mixed *mixedWatch // says a zone the demo shares

	cur    atomic.Pointer[Set]
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewRunning is the runner of set, whose sources record into h.
func NewRunning(log *slog.Logger, h *hub.Hub, set *Set) *Running {
	r := &Running{log: log, hub: h, mixed: &mixedWatch{log: log}}
	h.OnRecord(r.mixed.note)
	r.cur.Store(set)
	return r
}

// Set is the set that runs now.
func (r *Running) Set() *Set { return r.cur.Load() }

// Start runs set's runners and sources until ctx ends or Stop.
func (r *Running) Start(ctx context.Context, set *Set) {
	r.cur.Store(set)
	r.mixed.start(set, r.hub.Describe())
	ctx, r.cancel = context.WithCancel(ctx)
	for _, rn := range set.Runners {
		r.wg.Go(func() {
			if err := rn.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				r.log.Error("stopped", "part", rn.Name, "err", err)
			}
		})
	}
	for _, src := range set.Sources {
		r.wg.Go(func() {
			if err := src.Run(ctx, r.hub); err != nil && !errors.Is(err, context.Canceled) {
				r.log.Error("source stopped", "source", src.Name(), "err", err)
			}
		})
	}
}

// Stop ends what Start started and waits for it, and closes the current
// set's pushed sources (waiting for what they are recording).
func (r *Running) Stop() {
	if r.cancel != nil {
		r.cancel()
	}
	r.wg.Wait()
	for _, p := range r.Set().Pushed {
		p.Close()
	}
}

// Healthy reports every part that is not working: the history writer,
// the MQTT connection, and each source whose latest status is an error
// (a sensor that fails or is stale, a device that reports offline).
func (r *Running) Healthy(store *hub.Hub) func() error {
	return func() error {
		errs := []error{store.Health()}
		for _, h := range r.Set().Health {
			errs = append(errs, h())
		}
		sts := store.Statuses()
		sort.Slice(sts, func(i, j int) bool { return sts[i].Source < sts[j].Source })
		for _, st := range sts {
			if st.Err != nil {
				errs = append(errs, fmt.Errorf("source %s: %w", st.Source, st.Err))
			}
		}
		return errors.Join(errs...)
	}
}

// MQTTConnected and MQTTStats follow the current set; false and zero
// without MQTT.
func (r *Running) MQTTConnected() bool {
	if f := r.Set().MQTTConnected; f != nil {
		return f()
	}
	return false
}

func (r *Running) MQTTStats() ingest.Stats {
	if f := r.Set().MQTTStats; f != nil {
		return f()
	}
	return ingest.Stats{}
}
