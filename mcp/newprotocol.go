package mcp

import (
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol 2026-07-28 (SEP-2575) has no sessions: every request carries
// its protocol version (the Mcp-Protocol-Version header and _meta), a
// client learns the server with server/discover instead of initialize,
// and notifications come on the stream of a subscriptions/listen request.
// The go-sdk serves it only from a handler in Stateless mode, and a
// stateless handler cannot keep the sessions older clients need; so /mcp
// has two SDK handlers and the front sends each request to its own.
const (
	newestProtocol = "2026-07-28"
	methodListen   = "subscriptions/listen"
)

// statelessHandler serves requests of protocol 2026-07-28, server/discover
// among them.
func (s *Server) statelessHandler() http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.mcp }, &sdk.StreamableHTTPOptions{
		Stateless:                  true,
		MaxRequestBodyBytes:        s.opts.MaxBodyBytes,
		Logger:                     s.sdkLog.With("transport", "streamable", "protocol", newestProtocol),
		DisableLocalhostProtection: true, // the guard checks Host, as for the stateful handler
	})
}

// newProtocol reports whether a request is for the stateless handler: its
// Mcp-Protocol-Version header names 2026-07-28 or later (versions are
// dates, so they compare as strings). server/discover goes by the same
// header, which SEP-2575 requires on it: a discover without it (as the
// stdio bridge of climated mcp --remote forwards one, before it knows a
// version) gets the stateful handler's answer that the protocol is not
// served, and its client falls back to initialize and a session.
func newProtocol(r *http.Request) bool {
	return r.Header.Get("Mcp-Protocol-Version") >= newestProtocol
}

// listens reports whether the body holds a subscriptions/listen call: its
// answer is an event stream that lasts as long as the client listens.
func listens(envs []envelope) bool {
	for _, e := range envs {
		if e.Method == methodListen {
			return true
		}
	}
	return false
}

// liftDeadlines takes the server-wide read and write deadlines off a
// request whose answer is a stream that may legitimately last for hours,
// and bounds each write to it instead (deadlineWriter).
func (s *Server) liftDeadlines(w http.ResponseWriter) http.ResponseWriter {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	return &deadlineWriter{ResponseWriter: w, rc: rc, timeout: s.opts.StreamWriteTimeout}
}
