package hub

import (
	"context"
	"slices"
	"sync"

	"github.com/climated/climated/history/climate"
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
	reset []func(ctx context.Context, zone string, m sensors.Measurement)
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

// OnSeriesReset registers f to be called when a series' past readings are
// gone from the history and the live structure: a measured reading took a
// series the demo filled (its simulated readings dropped: sensors.Claim),
// an import did, or ForgetSource forgot the series. What a listener keeps
// of the series (a counter's total, a rate rule's past values, an alert
// its readings raised) goes with them: what comes next is another
// source's. f runs on the recording goroutine before OnRecord's
// subscribers hear of the batch that took the series, or on the caller of
// ForgetSource or Import; register it before the sources run.
func (h *Hub) OnSeriesReset(f func(ctx context.Context, zone string, m sensors.Measurement)) {
	h.subs.mu.Lock()
	defer h.subs.mu.Unlock()
	h.subs.reset = append(h.subs.reset, f)
}

// wasReset tells OnSeriesReset's subscribers of the series ss.
func (s *subscribers) wasReset(ctx context.Context, ss []climate.Series) {
	if len(ss) == 0 {
		return
	}
	s.mu.Lock()
	fs := s.reset
	s.mu.Unlock()
	for _, x := range ss {
		for _, f := range fs {
			f(ctx, x.Zone, x.Measurement)
		}
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
