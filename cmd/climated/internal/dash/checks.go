package dash

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// These mirror the checks of mcp/security.go (guard.checkHost,
// guard.checkOrigin, IsLoopback) so that the dashboard and the MCP
// endpoints accept the same requests; the HTTP front may share them.

// checkHost refuses a Host that is not a loopback name while the hub has
// no token (DNS rebinding), or one outside AllowedHosts when those are set.
func (h *Handler) checkHost(r *http.Request) string {
	host := hostOnly(r.Host)
	if len(h.opts.AllowedHosts) > 0 {
		for _, a := range h.opts.AllowedHosts {
			if strings.EqualFold(a, host) {
				return ""
			}
		}
		if isLoopback(host) {
			return ""
		}
		return fmt.Sprintf("Host %q is not one of the allowed hosts %v", r.Host, h.opts.AllowedHosts)
	}
	if h.opts.Token == "" && !isLoopback(host) {
		return fmt.Sprintf("Host %q is not a loopback name: this hub serves localhost only", r.Host)
	}
	return ""
}

// checkOrigin refuses requests made by pages of other origins; a
// state-changing request must name its origin.
func (h *Handler) checkOrigin(r *http.Request) string {
	origin := r.Header.Get("Origin")
	if origin == "" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return r.Method + " without an Origin header: only the hub's own pages may send it"
		}
		return ""
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return fmt.Sprintf("Origin %q is not a URL", origin)
	}
	if strings.EqualFold(u.Host, r.Host) {
		return ""
	}
	for _, o := range h.opts.AllowedOrigins {
		if strings.EqualFold(strings.TrimRight(o, "/"), strings.TrimRight(origin, "/")) {
			return ""
		}
	}
	return fmt.Sprintf("Origin %q is not allowed: only the hub's own pages and configured origins may call it", origin)
}

// local reports whether r comes from this machine to a loopback name.
func (h *Handler) local(r *http.Request) bool {
	ip, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		ip = r.RemoteAddr
	}
	return h.opts.IsLoopback(ip) && isLoopback(hostOnly(r.Host))
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.Trim(h, "[]")
	}
	return strings.Trim(hostport, "[]")
}

// isLoopback reports whether host (a name or an address, without a port)
// is localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
