package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"
)

// The go-sdk decodes a tools/call about eight times on its way to the
// handler (the body, the message, its _meta twice, the params, the
// arguments twice), each time with a fresh 32 KiB buffer: 280 KB and
// most of the time of a get_climate call (issue 16). Yet get_climate's
// answer changes only with the house: the same snapshot on the same day
// gives the same bytes. So a get_climate call goes through the SDK once
// per snapshot (and at least every replayFor); the answer the SDK wrote
// is kept (replaykeep.go), and the next calls of the same kind get it
// again under their own id without the SDK decoding anything.
//
// Only the plainest call is answered so: one message, a plain id, exactly
// {"name":"get_climate"} with no arguments or "arguments":{}, no _meta
// (protocol 2026-07-28: the same _meta, without a progress token), and
// the same headers as the call the SDK answered, of the same session
// (2026-07-28 has none). Anything else goes to the SDK as before.

// climateReplayFor is how long a kept answer serves at most.
const climateReplayFor = 10 * time.Second

// replayFor is how long a kept answer serves: the SDK's idle timer of a
// session (SessionTimeout) is reset only by requests that reach it, so a
// session that only calls get_climate must reach it well within that
// time, a quarter of it at most.
func (s *Server) replayFor() time.Duration {
	return min(climateReplayFor, s.opts.SessionTimeout/4)
}

// climateKey is what get_climate's answer depends on (climate_tool.go):
// the snapshot's JSON, from which its local times come too, and the local
// day (the "today" of those times). The snapshot is made anew every
// second; its JSON changes only with the house.
type climateKey struct {
	json []byte
	day  string
}

func (s *Server) climateKey() climateKey {
	return climateKey{s.hub.Snapshot().JSON, s.opts.Now().In(s.opts.Location).Format(time.DateOnly)}
}

func (k climateKey) equal(o climateKey) bool { return k.day == o.day && bytes.Equal(k.json, o.json) }

// replaySlot says under which name a POST's answer may be kept: its
// session's, or for protocol 2026-07-28 its params'; "" when it is not a
// replayable get_climate call.
func replaySlot(session string, modern, batch bool, msgs []json.RawMessage, envs []envelope) string {
	if batch || len(msgs) != 1 || (session == "") != modern {
		return ""
	}
	params, ok := replayable(msgs[0], envs[0], modern)
	switch {
	case !ok:
		return ""
	case modern:
		return "m:" + string(params)
	default:
		return "s:" + session
	}
}

// replayable reports whether msg is a get_climate call plain enough to
// answer with a kept answer, and returns its params.
func replayable(msg json.RawMessage, env envelope, modern bool) (json.RawMessage, bool) {
	if env.Method != "tools/call" || !plainID(env.ID) || bytes.Contains(msg, []byte("progressToken")) {
		return nil, false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(msg, &top) != nil || len(top) != 4 || string(top["jsonrpc"]) != `"2.0"` || top["id"] == nil || top["method"] == nil {
		return nil, false
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(top["params"], &params) != nil || string(params["name"]) != `"`+ToolGetClimate+`"` {
		return nil, false
	}
	n := 1
	if args, ok := params["arguments"]; ok {
		if !emptyObject(args) {
			return nil, false
		}
		n++
	}
	if _, ok := params["_meta"]; ok {
		if !modern {
			return nil, false
		}
		n++
	}
	return top["params"], len(params) == n
}

func emptyObject(v json.RawMessage) bool {
	t := bytes.TrimSpace(v)
	return len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}

// serveClimateCall answers a replayable get_climate call from the answer
// kept in slot, or passes it to next and keeps the SDK's answer.
func (s *Server) serveClimateCall(w http.ResponseWriter, r *http.Request, slot, session string, id []byte, next func(http.ResponseWriter)) {
	key, shape := s.climateKey(), requestShape(r)
	if session != "" {
		end := s.book.begin(session, false)
		defer func() { end(s.opts.Now()) }()
	}
	if s.replay.replay(w, slot, shape, id, key, s.opts.Now()) {
		return
	}
	rec := &answerRecorder{ResponseWriter: w}
	next(rec)
	a := keptFrom(rec, id)
	if a == nil || !s.climateKey().equal(key) || session != "" && !s.watchEnd(session) {
		return
	}
	a.key, a.shape, a.until = key, shape, s.opts.Now().Add(s.replayFor())
	s.replay.keep(slot, a)
}

// watchEnd forgets the session's answer when the SDK ends the session
// (DELETE, idle timeout, closed by this layer), so that no call of an
// ended session is answered; it reports whether the session is open.
func (s *Server) watchEnd(session string) bool {
	slot := "s:" + session
	if !s.replay.watch(slot) {
		return true
	}
	for ss := range s.mcp.Sessions() {
		if ss.ID() == session {
			go func() {
				ss.Wait()
				s.replay.forget(slot)
			}()
			return true
		}
	}
	s.replay.forget(slot)
	return false
}
