package transport

import (
	"context"
	"net/http"

	"github.com/climated/climated/internal/perclient"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// What clients hold open is counted per client (remote address, and bearer
// token when one is presented) and for all together, by one
// perclient.Limit: a Streamable HTTP session from its initialize to its end
// (its GET stream with it: the SDK allows one per session), an HTTP+SSE
// session (its stream), and a subscriptions/listen stream of 2026-07-28
// (an SDK session for as long as it lasts). Nobody is refused: a client
// past its share loses its own oldest, and at the ceiling the client
// holding most loses its oldest. A client that leaks streams or sessions
// closes only its own, and a new client always gets in.
const (
	// DefaultMaxSessions is the ceiling of all clients together. Each
	// session costs a few goroutines and buffers; 64 is far more than a
	// house runs (a few machines with a handful of MCP clients each) and
	// little for the memory of a Raspberry Pi.
	DefaultMaxSessions = 64
	// DefaultMaxClientSessions is one client's share. One machine runs
	// a handful of MCP clients at once (a desktop app, an editor, the
	// bridge, the Inspector's runs until StreamlessTimeout ends them),
	// each with a session and perhaps a stream, all from one loopback
	// address: 16 leaves them room. It is a quarter of the ceiling, so
	// that one client never holds more than a quarter of it.
	DefaultMaxClientSessions = 16
)

// holdStream counts the stream of every request through next (GET /sse:
// an SSE session lives as long as its stream) against its client's share.
func (t *HTTP) holdStream(kind string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, release := t.holdRequest(r, kind)
		defer release()
		next.ServeHTTP(w, r)
	})
}

// holdRequest counts the stream r opens against its client's share, until
// the returned release. Ending it to make room cancels the context of the
// returned request, which ends the stream and the SDK session behind it.
func (t *HTTP) holdRequest(r *http.Request, kind string) (*http.Request, func()) {
	ctx, cancel := context.WithCancel(r.Context())
	release := t.holds.Hold(perclient.Client(r), t.evicted(kind, cancel))
	r, unwatch := t.grants.watchStream(r.WithContext(ctx), kind)
	return r, func() {
		unwatch()
		release()
		cancel()
	}
}

// holdSession counts the Streamable HTTP session id, which r (an
// initialize) opened, against the client's share until the session ends;
// ending it to make room closes the session, and its GET stream with it.
func (t *HTTP) holdSession(r *http.Request, id string) {
	var ss *sdk.ServerSession
	for open := range t.server.Sessions() {
		if open.ID() == id {
			ss = open
			break
		}
	}
	if ss == nil {
		return // ended already
	}
	end := func() {
		t.book.forget(id)
		// The SDK's Close waits for the session's calls in flight to end
		// (each within RequestTimeout): on a goroutine of its own, so that
		// the initialize that made room is not held up by them.
		go ss.Close()
	}
	release := t.holds.Hold(perclient.Client(r), t.evicted("session", end))
	unwatch := t.grants.watchSession(r, "session", end)
	go func() {
		ss.Wait()
		unwatch()
		release()
	}()
}

// evicted ends a hold to make room, and says so: at INFO the first time a
// client loses one (the operator learns of a client that leaks), at DEBUG
// for the rest of its run.
func (t *HTTP) evicted(kind string, end func()) func(perclient.Eviction) {
	return func(e perclient.Eviction) {
		end()
		why := "the client holds more than its share"
		if e.Ceiling {
			why = "every client together holds the ceiling, and this client holds most"
		}
		level := t.log.Debug
		if e.Nth == 1 {
			level = t.log.Info
		}
		level("closed a client's oldest MCP session or stream to make room", "client", e.Client, "kind", kind, "why", why,
			"share", t.opts.MaxClientSessions, "ceiling", t.opts.MaxSessions, "closed", e.Nth)
	}
}
