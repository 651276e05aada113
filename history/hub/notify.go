package hub

import (
	"context"
	"slices"
	"sync"

	"github.com/climated/climated/sensors"
)

// subscribers are the functions Admit, OnRecord, OnReport and OnUpdate
// registered.
type subscribers struct {
	mu    sync.Mutex
	fs    []func(zones []string, added bool)
	rec   []func(ctx context.Context, rs []sensors.Reading)
	rep   []func(st sensors.Status)
	admit []func(r sensors.Reading) bool
}

// Admit registers f to judge every valid reading Record is handed, before
// the store sees it: one that f refuses is dropped without an error (f
// says why, as the clock guard logs readings stamped before the clock
// was set). Register it before the sources run.
func (h *Hub) Admit(f func(r sensors.Reading) bool) {
	h.subs.mu.Lock()
	defer h.subs.mu.Unlock()
	h.subs.admit = append(h.subs.admit, f)
}

// admitted drops from valid, in place, the readings a function of Admit
// refuses.
func (s *subscribers) admitted(valid []sensors.Reading) []sensors.Reading {
	s.mu.Lock()
	fs := s.admit
	s.mu.Unlock()
	for _, f := range fs {
		valid = slices.DeleteFunc(valid, func(r sensors.Reading) bool { return !f(r) })
	}
	return valid
}

// OnRecord registers f to be called with the readings of every batch
// Record takes that the live structure's claim kept (none of a simulated
// reading of a measured series, which the store skips too), after the
// store and the live structure have them, on the
// recording goroutine and in the order the batches came: the alert engine
// judges them there. Imports do not reach it.
func (h *Hub) OnRecord(f func(ctx context.Context, rs []sensors.Reading)) {
	h.subs.mu.Lock()
	defer h.subs.mu.Unlock()
	h.subs.rec = append(h.subs.rec, f)
}

func (s *subscribers) recorded(ctx context.Context, rs []sensors.Reading) {
	s.mu.Lock()
	fs := s.rec
	s.mu.Unlock()
	for _, f := range fs {
		f(ctx, rs)
	}
}

// OnReport registers f to be called with every status a source reports
// (Report), on the reporting goroutine: it must return at once.
func (h *Hub) OnReport(f func(st sensors.Status)) {
	h.subs.mu.Lock()
	defer h.subs.mu.Unlock()
	h.subs.rep = append(h.subs.rep, f)
}

func (s *subscribers) reported(st sensors.Status) {
	s.mu.Lock()
	fs := s.rep
	s.mu.Unlock()
	for _, f := range fs {
		f(st)
	}
}

// OnUpdate registers f to be called after every batch of readings with the
// zones that got readings, and whether any of them (or any of their
// measurements) is new; and after a source's report that changes its
// zones' health (Report), with those zones. f runs on the recording or
// reporting goroutine: it must return at once.
func (h *Hub) OnUpdate(f func(zones []string, added bool)) {
	h.subs.mu.Lock()
	defer h.subs.mu.Unlock()
	h.subs.fs = append(h.subs.fs, f)
}

func (s *subscribers) notify(rs []sensors.Reading, added bool) {
	var zones []string
	seen := map[string]bool{}
	for _, r := range rs {
		if !seen[r.Zone] {
			seen[r.Zone] = true
			zones = append(zones, r.Zone)
		}
	}
	if len(zones) > 0 || added {
		s.call(zones, added)
	}
}

// changed tells the subscribers that what is known of zones changed
// without a reading: a source's health.
func (s *subscribers) changed(zones []string) { s.call(zones, false) }

func (s *subscribers) call(zones []string, added bool) {
	s.mu.Lock()
	fs := s.fs
	s.mu.Unlock()
	for _, f := range fs {
		f(zones, added)
	}
}
