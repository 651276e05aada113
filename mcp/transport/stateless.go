package transport

import (
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol 2026-07-28 (SEP-2575) has no sessions: every request carries
// its protocol version (the Mcp-Protocol-Version header and _meta), a
// client learns the server with server/discover instead of initialize,
// and notifications come on the stream of a subscriptions/listen request.
// The go-sdk serves it only from a handler in Stateless mode, and its
// stateful handler refuses it (CodeUnsupportedProtocolVersion, "this
// server is stateful"); a stateless handler cannot keep the sessions of
// older clients. So /mcp has two SDK handlers and each request goes to
// its own by its header. Delete this when
// TestSDKStatefulHandlerRefusesStatelessRequests fails.
const (
	statelessProtocol = "2026-07-28" // the first protocol without sessions
	methodListen      = "subscriptions/listen"
)

// statelessHandler serves the requests of protocols without sessions,
// server/discover among them.
func (t *HTTP) statelessHandler() http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return t.server }, &sdk.StreamableHTTPOptions{
		Stateless:                  true,
		MaxRequestBodyBytes:        t.opts.MaxBodyBytes,
		Logger:                     t.sdkLog.With("transport", "streamable", "stateless", true),
		DisableLocalhostProtection: true, // the front checks Host, as for the stateful handler
	})
}

// isStateless reports whether r is for the stateless handler: its
// Mcp-Protocol-Version names 2026-07-28 or later (versions are dates,
// so they compare as strings). server/discover goes by the same header,
// which SEP-2575 requires on it: a discover without it (as the stdio
// bridge of climated mcp --remote forwards one, before it knows a
// version) gets the stateful handler's answer that the protocol is not
// served, and its client falls back to initialize and a session.
func isStateless(r *http.Request) bool {
	return r.Header.Get("Mcp-Protocol-Version") >= statelessProtocol
}

// liftDeadlines takes the server-wide read and write deadlines off a
// request whose answer is a stream that may legitimately last for hours,
// and bounds each write to it instead (deadlineWriter).
func (t *HTTP) liftDeadlines(w http.ResponseWriter) http.ResponseWriter {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	return &deadlineWriter{ResponseWriter: w, rc: rc, timeout: t.opts.StreamWriteTimeout}
}
