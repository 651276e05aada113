package dash

import (
	"net"
	"net/http"

	"github.com/climated/climated/cmd/climated/internal/front"
)

// The Host and Origin checks are the HTTP front's (front.Checks), so that
// the dashboard and the MCP endpoints accept the same requests.

// checkOrigin is front.Checks.Origin, and a state-changing request (the
// login) must name its origin: only the hub's own pages may send one.
func (h *Handler) checkOrigin(r *http.Request) string {
	if r.Header.Get("Origin") == "" && r.Method != http.MethodGet && r.Method != http.MethodHead {
		return r.Method + " without an Origin header: only the hub's own pages may send it"
	}
	return h.checks.Origin(r)
}

// local reports whether r comes from this machine to a loopback name,
// and no proxy there may have passed it on.
func (h *Handler) local(r *http.Request) bool {
	if h.opts.Proxied {
		return false
	}
	ip, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		ip = r.RemoteAddr
	}
	return h.opts.IsLoopback(ip) && front.IsLoopback(front.HostOnly(r.Host))
}
