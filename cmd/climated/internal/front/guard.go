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
	oauth     OAuth
	toolScope func(tool string) string
}

func newGuard(opts *Options) *guard {
	g := &guard{Checks: NewChecks(opts.Token, opts.AllowedHosts, opts.AllowedOrigins), oauth: opts.OAuth, toolScope: opts.ToolScope}
	if opts.Token != "" {
		g.tokenHash = sha256.Sum256([]byte(opts.Token))
	}
	return g
}

func (g *guard) wrap(next http.Handler) http.Handler {
	return g.checkHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := g.checkToken(r); msg != "" {
			w.Header().Set("WWW-Authenticate", wwwAuthenticate)
			http.Error(w, msg, http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	}))
}

// checkHeaders refuses a request whose Host or Origin fails the checks.
func (g *guard) checkHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := g.Host(r); msg != "" {
			http.Error(w, msg, http.StatusForbidden)
			return
		}
		if msg := g.Origin(r); msg != "" {
			http.Error(w, msg, http.StatusForbidden)
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
	if !g.matches(given) {
		return "wrong bearer token"
	}
	return ""
}

// matches compares hashes, which keeps the comparison constant-time
// whatever the lengths.
func (g *guard) matches(given string) bool {
	sum := sha256.Sum256([]byte(strings.TrimSpace(given)))
	return subtle.ConstantTimeCompare(sum[:], g.tokenHash[:]) == 1
}
