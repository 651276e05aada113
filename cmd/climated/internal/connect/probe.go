package connect

import (
	"context"
	"net/http"
	"time"
)

// probeTimeout bounds the look for a hub: one on loopback answers within
// milliseconds, and connect must not hang on a port something else holds.
const probeTimeout = time.Second

// hubAnswers reports whether a climated hub answers at base: its /healthz
// says 200 (healthy) or 503 (serving, with a problem). Anything else (no
// listener, another program) is no hub.
func hubAnswers(base string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusServiceUnavailable
}
