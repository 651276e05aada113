package main

import (
	"sync"
	"sync/atomic"
)

// simulatedFlag says whether the hub runs its demo house, as the sources
// now running say (sources.Set.Simulated): set at start and by every
// reload, read by the dashboard and the MCP server as they answer, and
// told to those that keep what they made of it (get_climate's
// description).
type simulatedFlag struct {
	on atomic.Bool
	mu sync.Mutex
	fs []func()
}

func newSimulatedFlag(on bool) *simulatedFlag {
	f := &simulatedFlag{}
	f.on.Store(on)
	return f
}

// Load says whether the demo house runs.
func (f *simulatedFlag) Load() bool { return f.on.Load() }

// onChange registers fn, called after each change.
func (f *simulatedFlag) onChange(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fs = append(f.fs, fn)
}

// set records whether the demo house runs and tells onChange's functions
// when that changed.
func (f *simulatedFlag) set(on bool) {
	if f.on.Swap(on) == on {
		return
	}
	f.mu.Lock()
	fs := f.fs
	f.mu.Unlock()
	for _, fn := range fs {
		fn()
	}
}
