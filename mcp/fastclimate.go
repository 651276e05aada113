package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/climated/climated/history"
)

// The go-sdk decodes a tools/call about eight times on its way to the
// handler (the body, the message, its _meta twice, the params, the
// arguments twice), each time with a fresh 32 KiB buffer: 280 KB and
// most of the time of a get_climate call (issue 16). Yet get_climate's
// answer changes only with the house: the same snapshot on the same day
// gives the same bytes. So a session's get_climate goes through the SDK
// once per snapshot (and at least every climateReplayFor); the answer the
// SDK wrote is kept, and the session's next calls of the same kind get it
// again under their own id without the SDK decoding anything.
//
// Only the plainest call is answered so: one message, a plain id, exactly
// {"name":"get_climate"} with no arguments or "arguments":{}, no _meta
// (no progress token), the same Accept and protocol-version headers as
// the call the SDK answered. Anything else goes to the SDK as before.

// climateReplayFor is how long a kept answer serves a session at most.
const climateReplayFor = 10 * time.Second

// replayFor is how long a kept answer serves: the SDK's idle timer of the
// session (SessionTimeout) is reset only by requests that reach it, so a
// session that only calls get_climate must reach it well within that
// time, a quarter of it at most.
func (s *Server) replayFor() time.Duration {
	return min(climateReplayFor, s.opts.SessionTimeout/4)
}

// climateKey is what get_climate's answer depends on: the snapshot of the
// house and the local day (the "today" of its local times).
type climateKey struct {
	snap *history.Snapshot
	day  string
}

func (s *Server) climateKey() climateKey {
	return climateKey{s.hub.Snapshot(), s.opts.Now().In(s.opts.Location).Format(time.DateOnly)}
}

// keptAnswer is one session's last get_climate answer from the SDK.
type keptAnswer struct {
	key           climateKey
	until         time.Time
	accept, proto string      // the request headers it answered
	header        http.Header // Content-Type, Cache-Control as the SDK set them
	head, tail    []byte      // the body before and after the id
}

// climateReplay keeps the answers, by session.
type climateReplay struct {
	mu      sync.Mutex
	answers map[string]*keptAnswer
	watched map[string]bool // sessions whose end is watched
}

func newClimateReplay() *climateReplay {
	return &climateReplay{answers: map[string]*keptAnswer{}, watched: map[string]bool{}}
}

// replayable reports whether msg is a get_climate call plain enough to
// answer with a kept answer.
func replayable(msg json.RawMessage, env envelope) bool {
	if env.Method != "tools/call" || !plainID(env.ID) || bytes.Contains(msg, []byte("_meta")) {
		return false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(msg, &top) != nil || len(top) != 4 || string(top["jsonrpc"]) != `"2.0"` || top["id"] == nil || top["method"] == nil {
		return false
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(top["params"], &params) != nil || string(params["name"]) != `"`+ToolGetClimate+`"` {
		return false
	}
	args, hasArgs := params["arguments"]
	if hasArgs && !emptyObject(args) {
		return false
	}
	return len(params) == 1 || len(params) == 2 && hasArgs
}

func emptyObject(v json.RawMessage) bool {
	t := bytes.TrimSpace(v)
	return len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}

// replay answers r with the session's kept answer under id, when there is
// one for key and r's headers; it reports whether it did.
func (c *climateReplay) replay(w http.ResponseWriter, r *http.Request, session string, id []byte, key climateKey, now time.Time) bool {
	c.mu.Lock()
	a := c.answers[session]
	c.mu.Unlock()
	if a == nil || a.key != key || !now.Before(a.until) || !sameRequestShape(r, a.accept, a.proto) {
		return false
	}
	h := w.Header()
	for k, v := range a.header {
		h[k] = v
	}
	h.Set("Content-Length", strconv.Itoa(len(a.head)+len(id)+len(a.tail)))
	w.WriteHeader(http.StatusOK)
	buf := make([]byte, 0, len(a.head)+len(id)+len(a.tail))
	w.Write(append(append(append(buf, a.head...), id...), a.tail...))
	return true
}

func sameRequestShape(r *http.Request, accept, proto string) bool {
	return r.Header.Get("Last-Event-ID") == "" && strings.Join(r.Header.Values("Accept"), ",") == accept &&
		r.Header.Get("Mcp-Protocol-Version") == proto && r.Header.Get("Content-Type") == "application/json"
}

// keep records the SDK's answer to a replayable call of session, made
// while the house stood at key; an answer that is not one plain result
// event for id is not kept.
func (c *climateReplay) keep(rec *answerRecorder, r *http.Request, session string, id []byte, key climateKey, until time.Time) {
	head := append(append([]byte("event: message\ndata: "), `{"jsonrpc":"2.0","id":`...), id...)
	head = append(head, `,"result":`...)
	body := rec.body.Bytes()
	if rec.status != http.StatusOK || rec.overflow || !bytes.HasPrefix(body, head) || !bytes.HasSuffix(body, []byte("}\n\n")) ||
		rec.Header().Get("Content-Type") != "text/event-stream" {
		return
	}
	var result struct {
		IsError bool `json:"isError"`
	}
	if json.Unmarshal(body[len(head):len(body)-3], &result) != nil || result.IsError {
		return
	}
	a := &keptAnswer{
		key: key, until: until,
		accept: strings.Join(r.Header.Values("Accept"), ","), proto: r.Header.Get("Mcp-Protocol-Version"),
		header: http.Header{},
		head:   bytes.Clone(head[:len(head)-len(id)-len(`,"result":`)]),
		tail:   bytes.Clone(body[len(head)-len(`,"result":`):]),
	}
	for _, k := range []string{"Content-Type", "Cache-Control"} {
		if v := rec.Header().Values(k); v != nil {
			a.header[k] = v
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watched[session] { // else the session has ended meanwhile
		c.answers[session] = a
	}
}

// forget drops the kept answer of a session that has ended.
func (c *climateReplay) forget(session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.answers, session)
	delete(c.watched, session)
}

// watch reports whether session is not yet watched, and marks it watched.
func (c *climateReplay) watch(session string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watched[session] {
		return false
	}
	c.watched[session] = true
	return true
}

// watchEnd forgets the session's answer when the SDK ends the session
// (DELETE, idle timeout, closed by this layer), so that no call of an
// ended session is answered.
func (s *Server) watchEnd(session string) bool {
	if !s.replay.watch(session) {
		return true
	}
	for ss := range s.mcp.Sessions() {
		if ss.ID() == session {
			go func() {
				ss.Wait()
				s.replay.forget(session)
			}()
			return true
		}
	}
	s.replay.forget(session)
	return false
}

// answerRecorder passes an answer through and keeps a copy of its body
// (up to maxKeptAnswer bytes).
type answerRecorder struct {
	http.ResponseWriter
	status   int
	body     bytes.Buffer
	overflow bool
}

const maxKeptAnswer = 1 << 20

func (w *answerRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *answerRecorder) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.body.Len()+len(p) > maxKeptAnswer {
		w.overflow = true
	} else if !w.overflow {
		w.body.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

func (w *answerRecorder) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

func (w *answerRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// serveClimateCall answers a replayable get_climate call of session from
// its kept answer, or passes it to next and keeps the SDK's answer.
func (s *Server) serveClimateCall(w http.ResponseWriter, r *http.Request, session string, id []byte, next func(http.ResponseWriter)) {
	key := s.climateKey()
	end := s.book.begin(session, false)
	replayed := s.replay.replay(w, r, session, id, key, s.opts.Now())
	end(s.opts.Now())
	if replayed {
		return
	}
	rec := &answerRecorder{ResponseWriter: w}
	next(rec)
	if s.climateKey() == key && s.watchEnd(session) {
		s.replay.keep(rec, r, session, id, key, s.opts.Now().Add(s.replayFor()))
	}
}
