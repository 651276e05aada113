package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// keptAnswer is the SDK's answer to a replayable get_climate call
// (fastclimate.go), split around its id.
type keptAnswer struct {
	key        climateKey
	shape      string // the request headers it answered (requestShape)
	until      time.Time
	header     http.Header // Content-Type, Cache-Control as the SDK set them
	head, tail []byte      // the body before and after the id
}

// maxModernSlots bounds the answers kept for 2026-07-28 calls, which are
// kept by their params: when full, all of them are dropped.
const maxModernSlots = 64

// climateReplay keeps the answers: a session's by "s:" and its id, a
// 2026-07-28 call's by "m:" and its params.
type climateReplay struct {
	mu      sync.Mutex
	answers map[string]*keptAnswer
	watched map[string]bool // session slots whose end is watched
	modern  int             // "m:" slots in answers
}

func newClimateReplay() *climateReplay {
	return &climateReplay{answers: map[string]*keptAnswer{}, watched: map[string]bool{}}
}

// requestShape is what of a request's headers the SDK looks at: Accept,
// Content-Type, Last-Event-ID and the Mcp- headers but the session id.
func requestShape(r *http.Request) string {
	var parts []string
	for k, v := range r.Header {
		if k == "Accept" || k == "Content-Type" || k == "Last-Event-Id" || strings.HasPrefix(k, "Mcp-") && k != sessionHeader {
			parts = append(parts, k+": "+strings.Join(v, "\x00"))
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, "\n")
}

// replay answers with the answer kept in slot under id, when there is one
// for key and shape; it reports whether it did.
func (c *climateReplay) replay(w http.ResponseWriter, slot, shape string, id []byte, key climateKey, now time.Time) bool {
	c.mu.Lock()
	a := c.answers[slot]
	c.mu.Unlock()
	if a == nil || !a.key.equal(key) || !now.Before(a.until) || a.shape != shape {
		return false
	}
	h := w.Header()
	for k, v := range a.header {
		h[k] = v
	}
	n := len(a.head) + len(id) + len(a.tail)
	h.Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	w.Write(append(append(append(make([]byte, 0, n), a.head...), id...), a.tail...))
	return true
}

// keptFrom makes a kept answer of what the SDK wrote, when it is one
// result for id (an event of an event stream, or JSON) and not an error.
func keptFrom(rec *answerRecorder, id []byte) *keptAnswer {
	body := rec.body.Bytes()
	if rec.status != http.StatusOK || rec.overflow {
		return nil
	}
	msg := bytes.TrimSuffix(body, []byte("\n"))
	frame := []byte("event: message\ndata: ")
	sse := rec.Header().Get("Content-Type") == "text/event-stream"
	if sse {
		if !bytes.HasPrefix(body, frame) || !bytes.HasSuffix(body, []byte("\n\n")) {
			return nil
		}
		msg = body[len(frame) : len(body)-2]
	} else if rec.Header().Get("Content-Type") != "application/json" {
		return nil
	}
	head := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	if !bytes.HasPrefix(msg, append(head, `,"result":`...)) {
		return nil
	}
	var result struct {
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &result) != nil || result.Result.IsError {
		return nil
	}
	at := 0 // where msg starts in body
	if sse {
		at = len(frame)
	}
	a := &keptAnswer{
		header: http.Header{},
		head:   bytes.Clone(body[:at+len(head)-len(id)]),
		tail:   bytes.Clone(body[at+len(head):]),
	}
	for _, k := range []string{"Content-Type", "Cache-Control"} {
		if v := rec.Header().Values(k); v != nil {
			a.header[k] = v
		}
	}
	return a
}

// keep records a kept answer in slot: a session's only while its end is
// watched (else the session has ended meanwhile).
func (c *climateReplay) keep(slot string, a *keptAnswer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	modern := strings.HasPrefix(slot, "m:")
	if !modern && !c.watched[slot] {
		return
	}
	if _, had := c.answers[slot]; modern && !had {
		if c.modern >= maxModernSlots {
			for k := range c.answers {
				if strings.HasPrefix(k, "m:") {
					delete(c.answers, k)
				}
			}
			c.modern = 0
		}
		c.modern++
	}
	c.answers[slot] = a
}

// forget drops the kept answer of a session that has ended.
func (c *climateReplay) forget(slot string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.answers, slot)
	delete(c.watched, slot)
}

// watch reports whether the session slot is not yet watched, and marks it
// watched.
func (c *climateReplay) watch(slot string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watched[slot] {
		return false
	}
	c.watched[slot] = true
	return true
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
