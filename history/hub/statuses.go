package hub

import (
	"sync"

	"github.com/climated/climated/sensors"
)

// statuses holds the latest status of every source.
type statuses struct {
	mu sync.Mutex
	m  map[string]sensors.Status
}

// Report records the latest status of a source and tells OnReport's
// subscribers. See sensors.Sink. A status
// that changes what the source says of its zones' health (a fault, its
// end, offline) is an update of those zones: OnUpdate's subscribers learn
// of it at once, as of a reading, rather than at their next look.
func (h *Hub) Report(st sensors.Status) {
	h.statuses.mu.Lock()
	old, had := h.statuses.m[st.Source]
	h.statuses.m[st.Source] = st
	h.statuses.mu.Unlock()
	h.subs.reported(st)
	if had && !sensors.SameHealth(old, st) || !had && st.Err != nil {
		h.subs.changed(st.Zones)
	}
}

// Statuses returns the latest status of every source that reported one.
func (h *Hub) Statuses() []sensors.Status {
	h.statuses.mu.Lock()
	defer h.statuses.mu.Unlock()
	out := make([]sensors.Status, 0, len(h.statuses.m))
	for _, st := range h.statuses.m {
		out = append(out, st)
	}
	return out
}
