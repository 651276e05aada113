package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Methods this layer itself looks at.
const (
	methodInitialize = "initialize"
	methodPing       = "ping"
)

// knownMethods are the methods a client may send: those go-sdk v1.8.0
// serves (its serverMethodInfos). The SDK's Streamable HTTP handler refuses
// any other with HTTP 400 and plain text, which clients cannot tie to the
// call; this layer answers JSON-RPC -32601 instead.
// TestKnownMethodsReachTheSDK pins the list against the SDK.
var knownMethods = map[string]bool{
	"completion/complete": true, "server/discover": true, methodInitialize: true, methodPing: true,
	"prompts/list": true, "prompts/get": true, "tools/list": true, "tools/call": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"logging/setLevel": true, "resources/subscribe": true, "subscriptions/listen": true,
	"resources/unsubscribe": true, "notifications/cancelled": true, "notifications/initialized": true,
	"notifications/roots/list_changed": true, "notifications/progress": true,
}

// streamableFront stands before the SDK's Streamable HTTP handler for
// POSTs: it counts every call of the body against the session's limit
// (a batch of 2025-03-26 as many calls), answers an unknown method and a
// call before initialize with JSON-RPC errors, swaps request ids the SDK
// would change for stand-ins whose answers get the ids back, and sends
// requests of protocol 2026-07-28 (and server/discover) to the stateless
// handler, all others to the stateful one (newprotocol.go).
func (s *Server) streamableFront(stateful, stateless http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			s.frontOther(w, r, stateful, stateless)
			return
		}
		p := &frontPost{w: w, r: r, next: stateful, stateless: stateless, session: r.Header.Get(sessionHeader)}
		// A POST counts as one call from the start, so that bodies still
		// arriving count too; once read, as many as it carries.
		if p.session != "" {
			if !s.calls.take(p.session, 1) {
				s.calls.refuse(w, 1)
				return
			}
			p.held = 1
			defer func() { s.calls.give(p.session, p.held) }()
		}
		s.frontServePost(p)
	})
}

// frontPost is one POST on its way through streamableFront.
type frontPost struct {
	w         http.ResponseWriter
	r         *http.Request
	next      http.Handler // the handler the body goes to: stateful until the protocol says otherwise
	stateless http.Handler
	session   string
	held      int // calls taken from the session's limit, given back when the POST ends
	body      []byte
	msgs      []json.RawMessage
	batch     bool
	envs      []envelope
	calls     int
	modern    bool // protocol 2026-07-28
}

// frontOther passes on a request other than a POST (GET, DELETE).
func (s *Server) frontOther(w http.ResponseWriter, r *http.Request, stateful, stateless http.Handler) {
	next := stateful
	if newProtocol(r) {
		next = stateless // which answers 405: 2026-07-28 has no GET stream
	}
	next.ServeHTTP(w, r)
}

// frontServePost reads and checks the body of a POST, then answers it
// itself or passes it on with ids kept.
func (s *Server) frontServePost(p *frontPost) {
	if !s.frontRead(p) {
		return
	}
	if p.modern {
		p.next = p.stateless
		// A listen holds an SDK session for as long as it lasts: it
		// counts against its client's share, and its stream may last.
		if listens(p.envs) {
			var release func()
			p.r, release = s.holdRequest(p.r, "listen")
			defer release()
			p.w = s.liftDeadlines(p.w)
		}
	}
	if !s.frontHoldCalls(p) {
		return
	}
	if answers, status := s.frontAnswers(p.envs, p.session == "" && !p.modern); answers != nil {
		writeAnswers(p.w, status, answers, p.batch)
		return
	}
	p.forward()
}

// frontRead reads the body and its messages into p; a body that is not
// JSON-RPC goes on to the SDK, which says what is wrong with it. It
// reports false when the request has been answered.
func (s *Server) frontRead(p *frontPost) bool {
	body, ok := readBody(p.w, p.r, s.opts.MaxBodyBytes)
	if !ok {
		return false
	}
	p.body = body
	msgs, batch, err := splitBody(body)
	if err != nil {
		if newProtocol(p.r) {
			p.next = p.stateless
		}
		p.next.ServeHTTP(p.w, withBody(p.r, body))
		return false
	}
	p.msgs, p.batch = msgs, batch
	p.envs, p.calls = envelopes(msgs)
	p.modern = newProtocol(p.r)
	return true
}

// frontHoldCalls takes the rest of the body's calls from the session's
// limit (the first was taken before the body was read); when they do not
// fit it refuses the POST and reports false.
func (s *Server) frontHoldCalls(p *frontPost) bool {
	if p.calls > s.calls.max {
		s.calls.refuse(p.w, p.calls)
		return false
	}
	if p.session != "" && p.calls > 1 {
		if !s.calls.take(p.session, p.calls-1) {
			s.calls.refuse(p.w, p.calls)
			return false
		}
		p.held = p.calls
	}
	return true
}

// forward swaps the request ids the SDK would change for stand-ins and
// passes the body on; the answers get the ids back.
func (p *frontPost) forward() {
	ids := newIDKeeper()
	changed := false
	for i, m := range p.msgs {
		kept, err := ids.keep(m, p.envs[i])
		if err != nil {
			http.Error(p.w, err.Error(), http.StatusBadRequest)
			return
		}
		changed = changed || !bytes.Equal(kept, m)
		p.msgs[i] = kept
	}
	if changed {
		p.body = joinBody(p.msgs, p.batch)
	}
	p.next.ServeHTTP(&idWriter{ResponseWriter: p.w, ids: ids}, withBody(p.r, p.body))
}

// frontAnswers answers the messages this layer refuses: calls of unknown
// methods, and calls before initialize (no session, no initialize among
// the messages). When it refuses any call of a batch it answers the whole
// batch, the other calls not run; it returns nil when the SDK should see
// the body.
func (s *Server) frontAnswers(envs []envelope, noSession bool) ([]json.RawMessage, int) {
	opens := false
	for _, e := range envs {
		opens = opens || e.Method == methodInitialize
	}
	var answers []json.RawMessage
	status, refused := http.StatusOK, false
	for _, e := range envs {
		var answer []byte
		switch {
		case !e.isCall():
		case !knownMethods[e.Method]:
			s.log.Debug("unknown method", "method", e.Method)
			answer = errorAnswer(e.ID, jsonrpc.CodeMethodNotFound, fmt.Sprintf("method %q not found: the hub serves MCP methods only", e.Method))
		case noSession && !opens && e.Method != methodPing:
			s.log.Debug("call before initialize", "method", e.Method)
			answer, status = errorAnswer(e.ID, jsonrpc.CodeInvalidRequest, notInitialized(e.Method)), http.StatusBadRequest
		}
		refused = refused || answer != nil
		if answer == nil && e.isCall() {
			answer = errorAnswer(e.ID, jsonrpc.CodeInvalidRequest, "not run: another call of the same batch was refused")
		}
		if answer != nil {
			answers = append(answers, answer)
		}
	}
	if !refused {
		return nil, 0
	}
	return answers, status
}

func notInitialized(method string) string {
	return fmt.Sprintf("%s before initialize: start the session with initialize (and notifications/initialized)", method)
}

func writeAnswers(w http.ResponseWriter, status int, answers []json.RawMessage, batch bool) {
	body := answers[0]
	if batch || len(answers) > 1 {
		body = joinBody(answers, true)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// readBody reads a POST body of at most max bytes; when it cannot, it
// answers the request and reports false.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
			return nil, false
		}
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return nil, false
	}
	return body, true
}

// splitBody returns the messages of a POST body, one or a batch.
func splitBody(body []byte) ([]json.RawMessage, bool, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var msgs []json.RawMessage
		if err := json.Unmarshal(trimmed, &msgs); err != nil {
			return nil, true, fmt.Errorf("decode batch: %w", err)
		}
		if len(msgs) == 0 {
			return nil, true, errors.New("empty batch")
		}
		return msgs, true, nil
	}
	if !json.Valid(trimmed) {
		return nil, false, errors.New("not JSON")
	}
	return []json.RawMessage{trimmed}, false, nil
}

// envelopes reads the id and method of every message and counts the calls;
// a message it cannot read is left for the SDK to refuse.
func envelopes(msgs []json.RawMessage) ([]envelope, int) {
	envs := make([]envelope, len(msgs))
	calls := 0
	for i, m := range msgs {
		envs[i] = envelopeOf(m)
		if envs[i].isCall() {
			calls++
		}
	}
	return envs, calls
}

func joinBody(msgs []json.RawMessage, batch bool) []byte {
	if !batch {
		return msgs[0]
	}
	parts := make([][]byte, len(msgs))
	for i, m := range msgs {
		parts[i] = m
	}
	return append(append([]byte{'['}, bytes.Join(parts, []byte{','})...), ']')
}

func withBody(r *http.Request, body []byte) *http.Request {
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return r
}

// idWriter gives the answers of one POST their ids as sent. The SDK writes
// each answer (or event) with one Write.
type idWriter struct {
	http.ResponseWriter
	ids *idKeeper
}

func (w *idWriter) Write(p []byte) (int, error) {
	if _, err := w.ResponseWriter.Write(w.ids.restore(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *idWriter) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

func (w *idWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
