package transport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/climated/climated/mcp/transport/internal/wire"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// streamableFront stands before the SDK's two Streamable HTTP handlers
// (stateless.go says why two). For a POST it reads the body once and
// counts its calls against the session's limit (a batch of 2025-03-26 as
// many calls); it answers the calls the SDK would answer without a
// JSON-RPC code (internal/wire: unknown methods, calls before
// initialize), and swaps the ids the SDK would change.
func (t *HTTP) streamableFront(stateful, stateless http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next := stateful
		if isStateless(r) {
			next = stateless // which answers GET and DELETE 405
		}
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		p := &frontPost{w: w, r: r, next: next, session: r.Header.Get(sessionHeader), stateless: next == stateless}
		// A POST counts as one call from the start, so that bodies still
		// arriving count too; once read, as many as it carries.
		if p.session != "" {
			if !t.calls.take(p.session, 1) {
				t.calls.refuse(w, 1)
				return
			}
			p.held = 1
			defer func() { t.calls.give(p.session, p.held) }()
		}
		t.servePost(p)
	})
}

// frontPost is one POST on its way to the SDK.
type frontPost struct {
	w         http.ResponseWriter
	r         *http.Request
	next      http.Handler
	session   string
	stateless bool // protocol 2026-07-28: no session
	held      int  // calls taken from the session's limit, given back when the POST ends
	body      wire.Body
}

// servePost reads the body, holds its calls and answers it or passes it
// on.
func (t *HTTP) servePost(p *frontPost) {
	data, ok := readBody(p.w, p.r, t.opts.MaxBodyBytes)
	if !ok {
		return
	}
	body, err := wire.Parse(data)
	if err != nil { // the SDK says what is wrong with it
		p.next.ServeHTTP(p.w, withBody(p.r, data))
		return
	}
	p.body = body
	if !t.holdCalls(p) {
		return
	}
	if p.stateless && body.Has(methodListen) {
		// A listen holds an SDK session for as long as it lasts: it
		// counts against its client's share, and its stream may last.
		var release func()
		p.r, release = t.holdRequest(p.r, "listen")
		defer release()
		p.w = t.liftDeadlines(p.w)
	}
	if answers, status := t.refusals(body, p.session == "" && !p.stateless, p.stateless); answers != nil {
		writeAnswers(p.w, status, answers, body.Batch)
		return
	}
	t.forward(p, data)
}

// holdCalls takes the rest of the body's calls from the session's limit
// (the first was taken before the body was read); when they do not fit
// it refuses the POST and reports false.
func (t *HTTP) holdCalls(p *frontPost) bool {
	calls := p.body.Calls()
	if calls > t.calls.max {
		t.calls.refuse(p.w, calls)
		return false
	}
	if p.session != "" && calls > 1 {
		if !t.calls.take(p.session, calls-1) {
			t.calls.refuse(p.w, calls)
			return false
		}
		p.held = calls
	}
	return true
}

// forward passes the body on to the SDK, with the ids it would change
// swapped; the answers get them back.
func (t *HTTP) forward(p *frontPost, data []byte) {
	var ids wire.IDs
	body, changed, err := ids.SwapBody(p.body)
	if err != nil {
		http.Error(p.w, err.Error(), http.StatusBadRequest)
		return
	}
	w := p.w
	if changed {
		data = body.Bytes()
		w = &idWriter{ResponseWriter: p.w, ids: &ids}
	}
	p.next.ServeHTTP(w, withBody(p.r, data))
}

// refusals answers the calls the SDK would answer without a JSON-RPC
// code: unknown methods, and calls before initialize (no session, no
// initialize in the body). When it refuses a call of a batch it answers
// the whole batch, the other calls not run; it returns nil when the SDK
// should see the body. On protocol 2026-07-28 (stateless) an unknown
// method is HTTP 404 besides -32601, as the SDK answers the methods that
// version removed (SEP-2575, the conformance suite's server-stateless).
func (t *HTTP) refusals(body wire.Body, noSession, stateless bool) ([][]byte, int) {
	opens := body.Has("initialize")
	var answers [][]byte
	status, refused := http.StatusOK, false
	for _, m := range body.Msgs {
		var answer []byte
		switch {
		case !m.IsCall():
		case !wire.Known(m.Method):
			t.log.Debug("unknown method", "method", m.Method)
			answer = wire.UnknownMethod(m)
			if stateless {
				status = http.StatusNotFound
			}
		case noSession && !opens && m.Method != "ping":
			t.log.Debug("call before initialize", "method", m.Method)
			answer, status = wire.BeforeInitialize(m), http.StatusBadRequest
		}
		refused = refused || answer != nil
		if answer == nil && m.IsCall() {
			answer = wire.ErrorAnswer(m.ID, jsonrpc.CodeInvalidRequest, "not run: another call of the same batch was refused")
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

func writeAnswers(w http.ResponseWriter, status int, answers [][]byte, batch bool) {
	body := answers[0]
	if batch || len(answers) > 1 {
		body = wire.Join(answers)
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

func withBody(r *http.Request, body []byte) *http.Request {
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return r
}

// idWriter gives the answers of one POST their ids as sent. The SDK writes
// each answer (or event) with one Write.
type idWriter struct {
	http.ResponseWriter
	ids *wire.IDs
}

func (w *idWriter) Write(p []byte) (int, error) {
	if _, err := w.ResponseWriter.Write(w.ids.Restore(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *idWriter) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

func (w *idWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
