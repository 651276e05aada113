// Package sinktest is a sensors.Sink for tests: it keeps what it is given.
package sinktest

import (
	"context"
	"slices"
	"sync"

	"github.com/climated/climated/sensors"
)

// Sink keeps valid readings and every status. RecordErr, if set, decides
// the error of each Record call (numbered from 1) before it keeps anything.
type Sink struct {
	mu        sync.Mutex
	readings  []sensors.Reading
	statuses  []sensors.Status
	calls     int
	RecordErr func(call int) error
}

var _ sensors.Sink = (*Sink)(nil)

// Flush implements sensors.Sink: what the sink keeps is kept at once.
func (s *Sink) Flush(context.Context) error { return nil }

// Record implements sensors.Sink; it rejects the batch if one reading is
// invalid, as the history would that reading.
func (s *Sink) Record(ctx context.Context, b sensors.Batch) error {
	rs := b.Readings
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.RecordErr != nil {
		if err := s.RecordErr(s.calls); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, r := range rs {
		if err := r.Validate(); err != nil {
			return err
		}
	}
	s.readings = append(s.readings, rs...)
	return nil
}

// Report implements sensors.Sink.
func (s *Sink) Report(st sensors.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses = append(s.statuses, st)
}

// Snapshot returns copies of what was kept.
func (s *Sink) Snapshot() ([]sensors.Reading, []sensors.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.readings), slices.Clone(s.statuses)
}

// Start runs src.Run into sink in a goroutine. stop cancels it and returns
// Run's error; calling it again returns the same.
func Start(src sensors.Source, sink sensors.Sink) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx, sink) }()
	return sync.OnceValue(func() error {
		cancel()
		return <-done
	})
}
