package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sseHandler serves the HTTP+SSE transport (protocol 2024-11-05) with the
// endpoint names of seed 000: GET /sse and POST /message?session_id=…. The
// go-sdk's own SSEHandler serves both on one path with a "sessionid"
// parameter, so this handler routes the seed's names to the SDK's
// SSEServerTransport, which does the protocol work.
type sseHandler struct {
	server  *sdk.Server
	maxBody int64
	log     *slog.Logger

	mu       sync.Mutex
	sessions map[string]*sseSession
}

type sseSession struct {
	transport *sdk.SSEServerTransport
	cancel    context.CancelFunc
}

func newSSEHandler(server *sdk.Server, maxBody int64, log *slog.Logger) *sseHandler {
	return &sseHandler{server: server, maxBody: maxBody, log: log, sessions: make(map[string]*sseSession)}
}

// serveStream opens a session: the endpoint event, then one message event
// per JSON-RPC message, until the client goes away or the server closes.
func (h *sseHandler) serveStream(w http.ResponseWriter, r *http.Request) {
	if _, ok := w.(http.Flusher); !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	id := rand.Text()
	t := &sdk.SSEServerTransport{
		Endpoint:            "/message?session_id=" + id,
		Response:            w,
		MaxRequestBodyBytes: h.maxBody,
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	h.mu.Lock()
	h.sessions[id] = &sseSession{transport: t, cancel: cancel}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.sessions, id)
		h.mu.Unlock()
	}()

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	ss, err := h.server.Connect(ctx, t, nil)
	if err != nil {
		h.log.Warn("open SSE session", "err", err)
		return
	}
	defer ss.Close()
	ended := make(chan struct{})
	go func() { ss.Wait(); close(ended) }()
	select {
	case <-ctx.Done():
	case <-ended:
	}
}

// serveMessage takes one client message for an open session and answers
// 202 Accepted; the response travels on the session's event stream.
func (h *sseHandler) serveMessage(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("session_id")
	if id == "" {
		http.Error(w, "missing session_id query parameter: open a session with GET /sse and POST to the endpoint its first event names", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	sess := h.sessions[id]
	h.mu.Unlock()
	if sess == nil {
		http.Error(w, fmt.Sprintf("unknown session_id %q: the session has ended or never existed; open a new one with GET /sse", id), http.StatusNotFound)
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		http.Error(w, fmt.Sprintf("Content-Type must be application/json, got %q", r.Header.Get("Content-Type")), http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	// Decoded here only to say what is wrong; the transport decodes again.
	if _, err := jsonrpc.DecodeMessage(body); err != nil {
		http.Error(w, "body is not a JSON-RPC 2.0 message: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	sess.transport.ServeHTTP(w, r)
}

// closeAll ends every open stream, so that an HTTP server shutdown does not
// wait for clients that never hang up.
func (h *sseHandler) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.sessions {
		s.cancel()
	}
}
