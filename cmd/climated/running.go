package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
)

// running owns the sources and runners of the current configuration: it
// starts a set, and stops it (waiting for every goroutine it started)
// before a reload starts the next one. Health, metrics and the MCP server
// read the current set through it, so a reload reaches them too.
type running struct {
	log  *slog.Logger
	sink sensors.Sink

	cur    atomic.Pointer[sourceSet]
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newRunning(log *slog.Logger, sink sensors.Sink, set *sourceSet) *running {
	r := &running{log: log, sink: sink}
	r.cur.Store(set)
	return r
}

// set is the set that runs now.
func (r *running) set() *sourceSet { return r.cur.Load() }

// start runs set's runners and sources until ctx ends or stop.
func (r *running) start(ctx context.Context, set *sourceSet) {
	r.cur.Store(set)
	ctx, r.cancel = context.WithCancel(ctx)
	for _, rn := range set.runners {
		r.wg.Go(func() {
			if err := rn.run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				r.log.Error("stopped", "part", rn.name, "err", err)
			}
		})
	}
	for _, src := range set.sources {
		r.wg.Go(func() {
			if err := src.Run(ctx, r.sink); err != nil && !errors.Is(err, context.Canceled) {
				r.log.Error("source stopped", "source", src.Name(), "err", err)
			}
		})
	}
}

// stop ends what start started and waits for it.
func (r *running) stop() {
	if r.cancel != nil {
		r.cancel()
	}
	r.wg.Wait()
}

// healthy reports every part that is not working: the history writer,
// the MQTT connection, and each source whose latest status is an error
// (a sensor that fails or is stale, a device that reports offline).
func (r *running) healthy(store *hub.Hub) func() error {
	return func() error {
		errs := []error{store.Health()}
		for _, h := range r.set().health {
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

// mqttConnected and mqttStats follow the current set; false and zero
// without MQTT.
func (r *running) mqttConnected() bool {
	if f := r.set().mqttConnected; f != nil {
		return f()
	}
	return false
}

func (r *running) mqttStats() mqtt.Stats {
	if f := r.set().mqttStats; f != nil {
		return f()
	}
	return mqtt.Stats{}
}
