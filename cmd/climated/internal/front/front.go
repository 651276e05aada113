// Package front is the hub's HTTP front: the one handler of its listener.
// It mounts the MCP transports (whose handlers package mcp builds), the
// get_climate structure as plain JSON at /api/climate, /healthz and
// /metrics, the MCP Server Card at /mcp/server-card (card.go), and puts
// the same checks before every route but /healthz: the
// Host header (DNS rebinding), the Origin header (cross-site requests) and
// the bearer token (guard.go), which the card alone does not need. A panic in a handler is answered 500 and
// logged. More routes mount with Handle and get the same checks; the
// dashboard, which checks who may call itself, mounts with Mount.
package front

import (
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
)

// Options are who may call the hub.
type Options struct {
	Token          string                   // when set, every checked request needs "Authorization: Bearer <Token>"
	OAuth          OAuth                    // when set (with Token: the owner approves with it), the MCP routes also take its access tokens (docs/oauth.md)
	ToolScope      func(tool string) string // the scope an OAuth token needs to call a tool, "" for none (mcp.ToolScope)
	AllowedHosts   []string                 // Host names accepted besides loopback ones; empty: any with a token, loopback only without
	AllowedOrigins []string                 // browser origins (scheme://host[:port]) allowed besides the hub's own
	Logger         *slog.Logger             // nil discards
}

// Routes are what the hub serves.
type Routes struct {
	// MCP serves the MCP transports: /mcp, /sse and /message
	// (mcp.Server.Handler).
	MCP http.Handler
	// Climate is the get_climate structure as JSON, for /api/climate.
	Climate func() []byte
	// Health are the readiness checks of /healthz: each error is a
	// problem, and a join of errors is one problem per error.
	Health []func() error
	// Warnings are what /healthz adds to a 200 without failing it: a
	// condition that will become a problem (a disk almost full).
	Warnings []func() []string
	// Details are parts of the hub that /healthz describes under their
	// key, without failing it (the remote write's state).
	Details map[string]func() any
	// Metrics is served at /metrics; nil: none.
	Metrics http.Handler
	// Card, when set, is served as the MCP Server Card at
	// PathServerCard, without a token (card.go).
	Card *Card
}

// Front is the hub's HTTP handler.
type Front struct {
	mux   *http.ServeMux
	guard *guard
	log   *slog.Logger
}

// New builds the front with the hub's routes.
func New(r Routes, opts *Options) *Front {
	if opts == nil {
		opts = &Options{}
	}
	f := &Front{mux: http.NewServeMux(), guard: newGuard(opts), log: opts.Logger}
	if f.log == nil {
		f.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if r.MCP != nil {
		for _, p := range []string{"/mcp", "/sse", "/message"} {
			f.mux.Handle(p, f.guard.wrapMCP(p, r.MCP))
		}
	}
	if r.Climate != nil {
		f.Handle("GET /api/climate", climate(r.Climate))
	}
	if r.Metrics != nil {
		f.Handle("GET /metrics", r.Metrics)
	}
	f.mux.Handle("GET /healthz", health(r.Health, r.Warnings, r.Details))
	if r.Card != nil {
		f.mux.Handle("GET "+PathServerCard, f.guard.serverCardHandler(*r.Card))
	}
	return f
}

// Handle mounts h at pattern (as http.ServeMux takes it) behind the
// front's checks.
func (f *Front) Handle(pattern string, h http.Handler) {
	f.mux.Handle(pattern, f.guard.wrap(h))
}

// Mount mounts h at pattern without the front's checks, for a handler
// that makes its own: the dashboard checks Host and Origin as the front
// does, and takes a session cookie from its login besides the token.
func (f *Front) Mount(pattern string, h http.Handler) {
	f.mux.Handle(pattern, h)
}

// ServeHTTP serves a request, answering a panic in a handler with 500 and
// a log line instead of losing the connection (net/http would log and
// drop it).
func (f *Front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			f.log.Error("panic in HTTP handler", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}()
	f.mux.ServeHTTP(w, r)
}

// problems lists what err says is wrong: one entry per error of a join.
func problems(err error) []string {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []string
		for _, e := range j.Unwrap() {
			out = append(out, problems(e)...)
		}
		return out
	}
	return []string{err.Error()}
}
