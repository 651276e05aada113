package dash

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/climated/climated/internal/perclient"
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
func (h *Handler) Streams() int { return h.streams.Held() }

// serveEvents streams the state as server-sent events: at once, after every
// change and, with a keep-alive, every KeepAlive. A client that does not
// take an event within WriteTimeout is dropped. No page is refused a
// stream: past its address's share (MaxClientStreams) the address's oldest
// stream ends, and past MaxStreams the oldest of the address with most,
// so that one client that leaks streams cannot keep the others' pages
// from following the house.
func (h *Handler) serveEvents(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	release := h.streams.Hold(perclient.Addr(r), func(e perclient.Eviction) {
		cancel()
		log := h.log.Debug
		if e.Nth == 1 { // once while the address keeps streams open
			log = h.log.Info
		}
		log("closed a dashboard stream to make room", "remote", e.Client, "ceiling", e.Ceiling,
			"share", h.opts.MaxClientStreams, "streams", h.opts.MaxStreams, "closed", e.Nth)
	})
	defer release()
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
		case <-ctx.Done():
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
