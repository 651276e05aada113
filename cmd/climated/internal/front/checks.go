package front

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Checks decide who may call the hub by the headers of a request: its Host
// (DNS rebinding) and its Origin (cross-site requests). The front applies
// them before its routes; the dashboard, which takes a login besides the
// token, applies them itself, so both accept the same requests.
type Checks struct {
	hasToken     bool
	allowedHosts []string
	origins      map[string]bool
}

// NewChecks are the checks of a hub with token ("" on loopback only),
// and the Host names and browser origins allowed besides its own.
func NewChecks(token string, allowedHosts, allowedOrigins []string) *Checks {
	c := &Checks{hasToken: token != "", allowedHosts: allowedHosts, origins: map[string]bool{}}
	for _, o := range allowedOrigins {
		c.origins[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	return c
}

// Host refuses ("" when it passes) a Host header that is not a loopback
// name while the hub has no token: a page on another site that rebinds its
// own name to 127.0.0.1 reaches the hub with its own name as Host. With a
// token, the token is the protection, unless allowed hosts are configured.
func (c *Checks) Host(r *http.Request) string {
	host := HostOnly(r.Host)
	if len(c.allowedHosts) > 0 {
		for _, h := range c.allowedHosts {
			if strings.EqualFold(h, host) {
				return ""
			}
		}
		if IsLoopback(host) {
			return ""
		}
		return fmt.Sprintf("Host %q is not one of the allowed hosts %v", r.Host, c.allowedHosts)
	}
	if !c.hasToken && !IsLoopback(host) {
		return fmt.Sprintf("Host %q is not a loopback name: this hub serves localhost only", r.Host)
	}
	return ""
}

// Origin refuses ("" when it passes) requests made by web pages of other
// origins; a request without Origin is not a browser's cross-origin one.
func (c *Checks) Origin(r *http.Request) string {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return ""
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return fmt.Sprintf("Origin %q is not a URL", origin)
	}
	if strings.EqualFold(u.Host, r.Host) || c.origins[strings.TrimRight(strings.ToLower(origin), "/")] {
		return ""
	}
	return fmt.Sprintf("Origin %q is not allowed: only the hub's own pages and configured origins may call it", origin)
}

// HostOnly is the host of a Host header, without port or IPv6 brackets.
func HostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.Trim(h, "[]")
	}
	return strings.Trim(hostport, "[]")
}

// IsLoopback reports whether host (a name or an address, without a port)
// is localhost or a loopback address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
