package sensors

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/climated/climated/internal/excerpt"
)

// Reading is one value of one measurement in one zone, as a source saw it.
type Reading struct {
	Zone        string      // configured zone name, e.g. "Bedroom"
	Measurement Measurement // what was measured
	Value       float64     // in the measurement's unit (see Info)
	Time        time.Time   // when it was measured
	Source      string      // the source that produced it, e.g. "demo/Bedroom" or "i2c1/0x76"
}

// Validate reports what is wrong with r, naming the zone, measurement and source.
func (r Reading) Validate() error {
	if !utf8.ValidString(r.Source) {
		return fmt.Errorf("reading from %s: the source's name is not UTF-8", excerpt.Quote(r.Source))
	}
	if err := CheckZone(r.Zone); err != nil {
		return fmt.Errorf("reading from %q: zone %s: %w", r.Source, excerpt.Quote(r.Zone), err)
	}
	if r.Time.IsZero() {
		return fmt.Errorf("reading %s/%s from %q: no time", r.Zone, r.Measurement, r.Source)
	}
	if err := r.Measurement.Check(r.Value); err != nil {
		return fmt.Errorf("reading %s from %q: %w", r.Zone, r.Source, err)
	}
	return nil
}

// Status is what a source says about itself rather than about the room: when
// it last produced readings and the last error it met. Battery and signal
// levels travel as Health readings so they have a history like any other
// measurement.
type Status struct {
	Source   string    // the source's name
	Zones    []string  // the zones it feeds
	LastSeen time.Time // time of its latest successful reading
	Err      error     // the latest error, nil once it reads again
	ErrTime  time.Time // when Err happened
}

// Sink receives what sources produce: history/hub.Hub is the one the
// hub's sources record into. Record takes a batch (readings, and the mark
// and states committed with them); it may block while the sink is busy,
// returns ctx.Err() when ctx ends first, and an error naming the
// offending reading when a reading is invalid (the valid ones are kept).
// Flush returns once what Record took is committed (on disk, for the
// history): the MQTT ingest acknowledges a QoS 1 message only then. A
// sink that wraps another passes Flush on; being part of the interface,
// no wrapper can forget it (one that did would turn QoS 1 into
// acknowledge-on-receipt without a word).
type Sink interface {
	Record(ctx context.Context, b Batch) error
	Report(status Status)
	Flush(ctx context.Context) error
}

// Source is anything that produces readings: an I²C chip, the GPIO rain
// gauge, an MQTT subscription, the demo house. Run produces readings into
// sink until ctx ends, then returns nil; it returns an error only when it
// cannot go on at all.
type Source interface {
	Name() string
	Run(ctx context.Context, sink Sink) error
}

// Pushed is a source whose readings are brought to the hub (a weather
// station's uploads) rather than read by it: built with its sink, it
// records on the goroutine of whatever brings them, from the start, until
// Close, which waits for what it is recording.
type Pushed interface {
	Name() string
	Close()
}

// ErrStopped is returned by sinks that no longer accept readings.
var ErrStopped = errors.New("sink stopped")

// ErrNotAdmitted, wrapped in what a sink's Record returns, says that the
// sink's guards refused every valid reading of the batch (the hub's
// clock guard: readings stamped before its clock can be right, see
// history/hub.Hub.Admit), so that nothing of the batch is recorded: its
// mark and states neither. The guard logs why. A source that keeps state
// with its readings (a station's rain gauge) must not take the batch's
// as recorded; one that retries gets the same answer while the guard's
// reason lasts.
var ErrNotAdmitted = errors.New("every reading refused by the sink's guards: nothing of the batch recorded")

// ErrDiskFull, wrapped in what a sink's Flush returns, says that the sink
// holds the readings in memory because the disk under it is full: they
// are written as soon as space is freed, and lost only if the hub stops
// before that. A source that waits for Flush before it acknowledges
// (MQTT QoS 1) acknowledges then all the same: a broker keeping the
// messages would drop them once its own queue is full, which happens far
// sooner than the sink's bound, and would hold back every newer message.
var ErrDiskFull = errors.New("the disk is full: readings wait in memory")

// ErrOffline, wrapped in a Status's Err, says the source reports itself
// (or another hub reports its zones) offline: its zones are stale at once,
// not only after a silence.
var ErrOffline = errors.New("device reports offline")
