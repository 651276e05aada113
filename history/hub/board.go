package hub

import (
	"sync"

	"github.com/climated/climated/sensors"
)

// board keeps the latest status of every source.
type board struct {
	mu sync.Mutex
	m  map[string]sensors.Status
}

// Report keeps the latest status of a source. See sensors.Sink.
func (h *Hub) Report(st sensors.Status) {
	h.board.mu.Lock()
	defer h.board.mu.Unlock()
	h.board.m[st.Source] = st
}

// Statuses returns the latest status of every source that reported one.
func (h *Hub) Statuses() []sensors.Status {
	h.board.mu.Lock()
	defer h.board.mu.Unlock()
	out := make([]sensors.Status, 0, len(h.board.m))
	for _, st := range h.board.m {
		out = append(out, st)
	}
	return out
}
