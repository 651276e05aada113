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

// Report keeps the latest status of a source. See sensors.Sink. A status
// that changes what the source says of its zones' health (a fault, its
// end, offline) is an update of those zones: OnUpdate's subscribers learn
// of it at once, as of a reading, rather than at their next look.
func (h *Hub) Report(st sensors.Status) {
	h.board.mu.Lock()
	old, had := h.board.m[st.Source]
	h.board.m[st.Source] = st
	h.board.mu.Unlock()
	if had && !sensors.SameHealth(old, st) || !had && st.Err != nil {
		h.subs.changed(st.Zones)
	}
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
