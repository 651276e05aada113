package dash

import (
	"fmt"
	"net/http"
	"time"
)

// notify wakes every stream; it is called on the recording goroutine and
// returns at once. Streams read the newest state themselves, so a burst of
// changes costs a slow page one event, not a queue.
func (h *Handler) notify() {
	h.mu.Lock()
	close(h.changed)
	h.changed = make(chan struct{})
	h.mu.Unlock()
}

func (h *Handler) changes() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// Streams is how many dashboard pages follow the house now.
func (h *Handler) Streams() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streams
}

func (h *Handler) addStream() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.streams >= h.opts.MaxStreams {
		return false
	}
	h.streams++
	return true
}

func (h *Handler) dropStream() {
	h.mu.Lock()
	h.streams--
	h.mu.Unlock()
}

// serveEvents streams the state as server-sent events: at once, after every
// change and, with a keep-alive, every KeepAlive. A client that does not
// take an event within WriteTimeout is dropped.
func (h *Handler) serveEvents(w http.ResponseWriter, r *http.Request) {
	if !h.addStream() {
		w.Header().Set("Retry-After", "30")
		http.Error(w, fmt.Sprintf("too many dashboard streams (limit %d): close a dashboard tab", h.opts.MaxStreams), http.StatusServiceUnavailable)
		return
	}
	defer h.dropStream()
	rc := http.NewResponseController(w)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	tick := time.NewTicker(h.opts.KeepAlive)
	defer tick.Stop()
	for {
		ch := h.changes()
		if err := h.send(w, rc, "retry: 3000\nevent: state\ndata: %s\n\n", h.state(false)); err != nil {
			h.log.Debug("dashboard stream dropped", "remote", r.RemoteAddr, "err", err)
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-ch:
		case <-tick.C:
		}
	}
}

func (h *Handler) send(w http.ResponseWriter, rc *http.ResponseController, format string, data []byte) error {
	if err := rc.SetWriteDeadline(time.Now().Add(h.opts.WriteTimeout)); err != nil {
		return fmt.Errorf("set write deadline: %w", err)
	}
	if _, err := fmt.Fprintf(w, format, data); err != nil {
		return err
	}
	return rc.Flush()
}
