package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/climated/climated/sensors"
)

// A reading more than this before the newest one recorded when the hub
// started was stamped by a clock that went back: a device that sends
// what it buffered is rarely further behind.
const clockSlack = time.Hour

// clockAhead is how far in the future the newest recorded reading may be
// and still be trusted as a floor; beyond, it was stamped by a clock that
// was ahead.
const clockAhead = 24 * time.Hour

// recorder is a sink whose readings can be flushed to the history: the
// MQTT ingest acknowledges a message only once Flush says its readings
// are on disk, so every sink between it and the hub must pass Flush on
// (a wrapper that did not would have messages acknowledged unwritten).
type recorder interface {
	sensors.Sink
	Flush(ctx context.Context) error
}

// clockGuard refuses readings stamped by a clock that cannot be right: a
// Pi has no real-time clock and, until NTP answers, says 1970 (or a
// clock set back stamps readings before those already recorded). Such
// readings would land at the wrong end of the history, so they are
// dropped and reported, at most once a minute.
type clockGuard struct {
	recorder // Report and Flush are the inner sink's
	log      *slog.Logger
	floor    time.Time // readings before it are refused

	mu      sync.Mutex
	refused int       // since the last report
	example time.Time // one of them
	logged  time.Time
}

func newClockGuard(sink recorder, log *slog.Logger, latest time.Time) *clockGuard {
	floor := clockFloor
	if now := time.Now(); latest.After(now.Add(clockAhead)) {
		// Stamped by a clock that was ahead then (a date set by hand, later
		// corrected): trusting it would refuse every reading until real
		// time caught up with it.
		log.Warn("the newest recorded reading is in the future: a clock was ahead when it was stamped; it does not hold back new readings",
			"newest", latest.UTC().Format(time.RFC3339), "now", now.UTC().Format(time.RFC3339))
	} else if l := latest.Add(-clockSlack); l.After(floor) {
		floor = l
	}
	return &clockGuard{recorder: sink, log: log, floor: floor}
}

func (g *clockGuard) Record(ctx context.Context, rs []sensors.Reading) error {
	keep := rs
	for i, r := range rs {
		if !r.Time.Before(g.floor) {
			if len(keep) < len(rs) {
				keep = append(keep, r)
			}
			continue
		}
		if len(keep) == len(rs) {
			keep = append(make([]sensors.Reading, 0, len(rs)), rs[:i]...)
		}
		g.refuse(r)
	}
	if len(keep) == 0 {
		return nil
	}
	return g.recorder.Record(ctx, keep)
}

func (g *clockGuard) refuse(r sensors.Reading) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refused++
	g.example = r.Time
	if time.Since(g.logged) < time.Minute {
		return
	}
	g.log.Warn("readings refused: stamped before the clock can be right; is the clock set? (climated doctor)",
		"refused", g.refused, "stamped", g.example.UTC().Format(time.RFC3339), "source", r.Source, "not_before", g.floor.UTC().Format(time.RFC3339))
	g.refused, g.logged = 0, time.Now()
}
