package transport

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/internal/wire"
)

// sseHandler serves the HTTP+SSE transport (protocol 2024-11-05) with the
// endpoint names MCP's 2024-11-05 examples use: GET /sse and POST
// /message?session_id=…. The
// go-sdk's SSEHandler serves both on one path with a "sessionid" parameter,
// and its SSEServerTransport bounds neither the work behind its 202 nor
// the time a write to a client that does not read may take, and changes
// request ids; sseSession does the transport's part, the SDK all the
// JSON-RPC. TestSDKSSETransportDoesNotBoundCalls fails when the SDK's
// transport bounds the calls behind its 202.
type sseHandler struct {
	server  *sdk.Server
	maxBody int64
	limit   *callLimit
	log     *slog.Logger

	mu       sync.Mutex
	sessions map[string]*sseSession
}

func newSSEHandler(server *sdk.Server, maxBody int64, limit *callLimit, log *slog.Logger) *sseHandler {
	return &sseHandler{server: server, maxBody: maxBody, limit: limit, log: log, sessions: make(map[string]*sseSession)}
}

// serveStream opens a session: the endpoint event, then one message event
// per JSON-RPC message, until the client goes away, stops reading, or the
// server closes.
func (h *sseHandler) serveStream(w http.ResponseWriter, r *http.Request) {
	if _, ok := w.(http.Flusher); !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	sess := newSSESession(rand.Text(), w, h.limit)
	sess.user = caller(r)
	h.mu.Lock()
	h.sessions[sess.id] = sess
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.sessions, sess.id)
		h.mu.Unlock()
	}()
	ss, err := h.server.Connect(r.Context(), sess, nil)
	if err != nil {
		sess.finish()
		// The client went away before its first event: its doing, not a fault.
		h.log.Debug("open SSE session", "err", err)
		return
	}
	select {
	case <-r.Context().Done():
	case <-sess.done:
	}
	// First cut short any write blocked on a client that does not read,
	// then let the SDK end the handlers that were writing.
	sess.finish()
	ss.Close()
}

// caller is who r comes from, as far as sessions go: the OAuth client of
// its access token, or "" for the hub's static token (or none, on a hub
// without one). A session takes messages from its opener only.
func caller(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return "oauth:" + ti.UserID
	}
	return ""
}

// serveMessage takes one client message for an open session and answers
// 202 Accepted; the answer travels on the session's event stream.
func (h *sseHandler) serveMessage(w http.ResponseWriter, r *http.Request) {
	sess := h.sessionOf(w, r)
	if sess == nil {
		return
	}
	// A session takes the messages of whoever opened it only: an OAuth
	// client's of that client, the owner's (static token) of the owner,
	// as the SDK's Streamable HTTP handler does for OAuth clients
	// ("session user mismatch"); the session id travels in a URL, which
	// proxies log.
	if caller(r) != sess.user {
		http.Error(w, "session user mismatch: the session belongs to another client", http.StatusForbidden)
		return
	}
	// A POST counts as one call from the start, so that bodies still
	// arriving count too; a call keeps it until its answer is written.
	if !h.limit.take(sess.limitKey(), 1) {
		h.limit.refuse(w, 1)
		return
	}
	held := true
	defer func() {
		if held {
			h.limit.give(sess.limitKey(), 1)
		}
	}()
	msg, call, ok := h.readMessage(w, r, sess)
	if !ok {
		return
	}
	if req, isReq := msg.(*jsonrpc.Request); isReq {
		// What the SDK's Streamable HTTP handler gives a request, so that
		// the handlers see who called (mcp's checkScope) on this transport too.
		req.Extra = &sdk.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header.Clone()}
	}
	if err := sess.accept(msg, call); err != nil {
		if errors.Is(err, errSessionEnded) {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.Header().Set("Retry-After", "1")
		http.Error(w, err.Error(), http.StatusTooManyRequests)
		return
	}
	held = !call // the answer gives the call back
	w.WriteHeader(http.StatusAccepted)
}

// sessionOf returns the open session a message names in its query; when
// there is none it answers the request and returns nil.
func (h *sseHandler) sessionOf(w http.ResponseWriter, r *http.Request) *sseSession {
	id := r.URL.Query().Get(sseSessionParam)
	if id == "" {
		http.Error(w, "missing session_id query parameter: open a session with GET /sse and POST to the endpoint its first event names", http.StatusBadRequest)
		return nil
	}
	h.mu.Lock()
	sess := h.sessions[id]
	h.mu.Unlock()
	if sess == nil {
		http.Error(w, fmt.Sprintf("unknown session_id %q: the session has ended or never existed; open a new one with GET /sse", id), http.StatusNotFound)
	}
	return sess
}

// readMessage reads the body of a message POST, one JSON-RPC 2.0 message
// sent as application/json, and decodes it for the SDK, its id swapped
// where needed (wire.Session); call says whether it wants an answer. When
// it cannot, it answers the request and reports false.
func (h *sseHandler) readMessage(w http.ResponseWriter, r *http.Request, sess *sseSession) (msg jsonrpc.Message, call, ok bool) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		http.Error(w, fmt.Sprintf("Content-Type must be application/json, got %q", r.Header.Get("Content-Type")), http.StatusUnsupportedMediaType)
		return nil, false, false
	}
	data, ok := readBody(w, r, h.maxBody)
	if !ok {
		return nil, false, false
	}
	body, err := wire.Parse(data)
	if err == nil && body.Batch {
		err = errors.New("a batch: send one message a POST")
	}
	var m wire.Message
	if err == nil {
		m, err = sess.rpc.In(body.Msgs[0])
	}
	if err == nil {
		msg, err = jsonrpc.DecodeMessage(m.Raw)
	}
	if err != nil {
		http.Error(w, fmt.Sprintf("body is not a JSON-RPC 2.0 message: %v", err), http.StatusBadRequest)
		return nil, false, false
	}
	return msg, m.IsCall(), true
}

// sseSessions counts the HTTP+SSE sessions open: those whose stream's
// handler has not yet returned.
func (t *HTTP) sseSessions() int {
	t.sse.mu.Lock()
	defer t.sse.mu.Unlock()
	return len(t.sse.sessions)
}

// closeAll ends every open stream, so that an HTTP server shutdown does not
// wait for clients that never hang up.
func (h *sseHandler) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.sessions {
		s.Close()
	}
}
