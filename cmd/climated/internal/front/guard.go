package front

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

const (
	authScheme      = "Bearer "
	wwwAuthenticate = `Bearer realm="climated"`
)

// guard checks every request to a checked route: the Host and Origin
// headers (DNS rebinding and cross-site requests) and the bearer token.
// The limits of MCP sessions and calls are package mcp's, checked behind
// it.
type guard struct {
	tokenHash    [32]byte
	hasToken     bool
	allowedHosts []string
	origins      map[string]bool
}

func newGuard(opts *Options) *guard {
	g := &guard{allowedHosts: opts.AllowedHosts, origins: map[string]bool{}}
	if opts.Token != "" {
		g.tokenHash, g.hasToken = sha256.Sum256([]byte(opts.Token)), true
	}
	for _, o := range opts.AllowedOrigins {
		g.origins[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	return g
}

func (g *guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := g.checkHost(r); msg != "" {
			http.Error(w, msg, http.StatusForbidden)
			return
		}
		if msg := g.checkOrigin(r); msg != "" {
			http.Error(w, msg, http.StatusForbidden)
			return
		}
		if msg := g.checkToken(r); msg != "" {
			w.Header().Set("WWW-Authenticate", wwwAuthenticate)
			http.Error(w, msg, http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkHost refuses a Host header that is not a loopback name while the
// hub has no token: a page on another site that rebinds its own name to
// 127.0.0.1 reaches the hub with its own name as Host. With a token, the
// token is the protection, unless allowed hosts are configured.
func (g *guard) checkHost(r *http.Request) string {
	host := hostOnly(r.Host)
	if len(g.allowedHosts) > 0 {
		for _, h := range g.allowedHosts {
			if strings.EqualFold(h, host) {
				return ""
			}
		}
		if IsLoopback(host) {
			return ""
		}
		return fmt.Sprintf("Host %q is not one of the allowed hosts %v", r.Host, g.allowedHosts)
	}
	if !g.hasToken && !IsLoopback(host) {
		return fmt.Sprintf("Host %q is not a loopback name: this hub serves localhost only", r.Host)
	}
	return ""
}

// checkOrigin refuses requests made by web pages of other origins.
func (g *guard) checkOrigin(r *http.Request) string {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return "" // not a browser's cross-origin request
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return fmt.Sprintf("Origin %q is not a URL", origin)
	}
	if strings.EqualFold(u.Host, r.Host) || g.origins[strings.TrimRight(strings.ToLower(origin), "/")] {
		return ""
	}
	return fmt.Sprintf("Origin %q is not allowed: only the hub's own pages and configured origins may call it", origin)
}

func (g *guard) checkToken(r *http.Request) string {
	if !g.hasToken {
		return ""
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		return "missing Authorization: Bearer <token> (climated token prints it)"
	}
	given, ok := strings.CutPrefix(h, authScheme)
	if !ok {
		return "Authorization must use the Bearer scheme"
	}
	// Comparing hashes keeps the comparison constant-time whatever the
	// lengths.
	sum := sha256.Sum256([]byte(strings.TrimSpace(given)))
	if subtle.ConstantTimeCompare(sum[:], g.tokenHash[:]) != 1 {
		return "wrong bearer token"
	}
	return ""
}

func hostOnly(hostport string) string {
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
