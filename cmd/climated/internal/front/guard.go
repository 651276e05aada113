package front

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
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
	*Checks
	tokenHash [32]byte
}

func newGuard(opts *Options) *guard {
	g := &guard{Checks: NewChecks(opts.Token, opts.AllowedHosts, opts.AllowedOrigins)}
	if opts.Token != "" {
		g.tokenHash = sha256.Sum256([]byte(opts.Token))
	}
	return g
}

func (g *guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := g.Host(r); msg != "" {
			http.Error(w, msg, http.StatusForbidden)
			return
		}
		if msg := g.Origin(r); msg != "" {
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
