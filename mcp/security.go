package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of the request limits.
const (
	DefaultMaxSessions = 64
	// DefaultMaxInFlight is how many calls a session may have in flight:
	// each call of a batch counts, and over the SSE transport a call
	// counts from its 202 until its answer is written to the stream.
	// Past it a POST is answered 429 (see callLimit).
	DefaultMaxInFlight    = 8
	DefaultRequestTimeout = 30 * time.Second
	sessionHeader         = "Mcp-Session-Id"
	sseSessionParam       = "session_id"
	authScheme            = "Bearer "
	wwwAuthenticate       = `Bearer realm="climated"`
)

// guard checks every request to the MCP and API endpoints before the SDK
// sees it: the bearer token, the Host and Origin headers (DNS rebinding and
// cross-site requests) and the number of sessions; the calls in flight per
// session are counted where the bodies are read (streamableFront,
// sseHandler.serveMessage).
type guard struct {
	s         *Server
	tokenHash [32]byte
	hasToken  bool
	origins   map[string]bool
}

func newGuard(s *Server) *guard {
	g := &guard{s: s, origins: map[string]bool{}}
	if s.opts.Token != "" {
		g.tokenHash, g.hasToken = sha256.Sum256([]byte(s.opts.Token)), true
	}
	for _, o := range s.opts.AllowedOrigins {
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
		if sessionOf(r) == "" && opensSession(r) {
			if n := g.sessions(); n >= g.s.opts.MaxSessions && !g.s.makeRoom() {
				w.Header().Set("Retry-After", "60")
				http.Error(w, fmt.Sprintf("too many sessions (%d open, limit %d), each with a stream or a request open: close unused ones; idle ones end after %s",
					n, g.s.opts.MaxSessions, g.s.opts.SessionTimeout), http.StatusServiceUnavailable)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// checkHost refuses a Host header that is not a loopback name while the
// server has no token: a page on another site that rebinds its own name to
// 127.0.0.1 reaches the hub with its own name as Host. With a token, the
// token is the protection, unless allowed hosts are configured.
func (g *guard) checkHost(r *http.Request) string {
	host := hostOnly(r.Host)
	if len(g.s.opts.AllowedHosts) > 0 {
		for _, h := range g.s.opts.AllowedHosts {
			if strings.EqualFold(h, host) {
				return ""
			}
		}
		if IsLoopback(host) {
			return ""
		}
		return fmt.Sprintf("Host %q is not one of the allowed hosts %v", r.Host, g.s.opts.AllowedHosts)
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

func (g *guard) sessions() int {
	n := 0
	for range g.s.mcp.Sessions() {
		n++
	}
	return n
}

func sessionOf(r *http.Request) string {
	if id := r.Header.Get(sessionHeader); id != "" {
		return id
	}
	return r.URL.Query().Get(sseSessionParam)
}

// opensSession: a Streamable HTTP POST without a session, on a protocol
// before 2026-07-28 (which has none), or GET /sse.
func opensSession(r *http.Request) bool {
	return (r.Method == http.MethodPost && r.URL.Path == "/mcp" && !newProtocol(r)) || (r.Method == http.MethodGet && r.URL.Path == "/sse")
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

// recoverHTTP answers a panic in a handler with 500 and a log line instead
// of losing the connection (net/http would log and drop it).
func (s *Server) recoverHTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic in HTTP handler", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				http.Error(w, "internal error", http.StatusInternalServerError)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// guardMCP bounds the time of every MCP method handler (a tool, a
// resource, a prompt) and turns a panic in one into a JSON-RPC error: the
// SDK runs handlers on goroutines of its own, where a panic would end the
// whole process; errors get a JSON-RPC code. subscriptions/listen is the one request meant to last.
func (s *Server) guardMCP(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
		if method != "subscriptions/listen" {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, s.opts.RequestTimeout)
			defer cancel()
		}
		defer func() {
			if v := recover(); v != nil {
				s.log.Error("panic in MCP handler", "method", method, "panic", v, "stack", string(debug.Stack()))
				res, err = nil, fmt.Errorf("internal error in %s", method)
			}
		}()
		res, err = next(ctx, method, req)
		return res, withCode(err)
	}
}

// withCode gives an error without a JSON-RPC code the code of an internal
// error: the SDK would send it with code 0, which clients cannot place.
func withCode(err error) error {
	var wire *jsonrpc.Error
	if err == nil || errors.As(err, &wire) && wire.Code != 0 {
		return err
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}
