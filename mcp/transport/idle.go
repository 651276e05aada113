package transport

import (
	"net/http"
	"slices"
	"sync"
	"time"
)

// DefaultStreamlessTimeout is how long a Streamable HTTP session with no
// open stream and no request in flight lives. Clients that keep a session
// for notifications hold a GET stream open; one without a stream only
// calls, and a client gone quiet that long (the MCP Inspector CLI leaves
// one such session per run) has most likely gone. A client that comes
// back gets 404 and initializes again, as the spec has it.
const DefaultStreamlessTimeout = 5 * time.Minute

// sessionBook keeps, for each Streamable HTTP session, when it was last
// used and what it has open, so that a session with no stream and no
// request ends after StreamlessTimeout. SSE sessions are not in the book:
// each has its stream open for as long as it lives.
//
// The SDK has one idle timeout (SessionTimeout), paused while a POST is
// in flight but not while a GET stream is open (the TODO on startPOST in
// its streamable.go), so it cannot tell a client that listens from one
// that has gone. When TestSDKSessionTimeoutIgnoresStreams fails, the SDK
// pauses it for streams too: SessionTimeout set to StreamlessTimeout then
// does what this file does, and the file may go.
type sessionBook struct {
	mu   sync.Mutex
	uses map[string]*sessionUse
}

type sessionUse struct {
	user     string    // who opened it (caller): "" the owner, else its OAuth client
	opened   bool      // its initialize is booked: user says who opened it
	last     time.Time // end of the latest request
	requests int       // POSTs in flight
	streams  int       // GET streams open
}

func newSessionBook() *sessionBook { return &sessionBook{uses: map[string]*sessionUse{}} }

// begin counts a request of session; the returned func ends it at now().
func (b *sessionBook) begin(session string, stream bool) func(now time.Time) {
	b.mu.Lock()
	u := b.use(session)
	if stream {
		u.streams++
	} else {
		u.requests++
	}
	b.mu.Unlock()
	return func(now time.Time) {
		b.mu.Lock()
		defer b.mu.Unlock()
		if stream {
			u.streams--
		} else {
			u.requests--
		}
		u.last = now
	}
}

// opened records a session its initialize created, and who opened it.
func (b *sessionBook) opened(session, user string, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	u := b.use(session)
	u.last, u.user, u.opened = now, user, true
}

// opener is who opened session (caller: "" the owner, else its OAuth
// client); ok is false when the book does not hold it as opened.
func (b *sessionBook) opener(session string) (user string, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	u := b.uses[session]
	if u == nil || !u.opened {
		return "", false
	}
	return u.user, true
}

func (b *sessionBook) use(session string) *sessionUse {
	u := b.uses[session]
	if u == nil {
		u = &sessionUse{}
		b.uses[session] = u
	}
	return u
}

func (b *sessionBook) forget(session string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.uses, session)
}

// quiet returns the sessions among open (the SDK's, listed at listed)
// with nothing open, longest idle first; it forgets those the SDK has
// ended (timeout, DELETE), but not one booked since listed, which the
// list could not name.
func (b *sessionBook) quiet(open map[string]bool, listed time.Time) []idleSession {
	b.mu.Lock()
	defer b.mu.Unlock()
	var q []idleSession
	for id, u := range b.uses {
		if !open[id] {
			if u.last.Before(listed) {
				delete(b.uses, id)
			}
			continue
		}
		if u.requests == 0 && u.streams == 0 {
			q = append(q, idleSession{id: id, last: u.last})
		}
	}
	slices.SortFunc(q, func(a, b idleSession) int { return a.last.Compare(b.last) })
	return q
}

type idleSession struct {
	id   string
	last time.Time
}

// trackSessions wraps the Streamable HTTP handler: it books every request
// of a session, and every session an initialize opens, which also counts
// against its client's share (share.go).
func (t *HTTP) trackSessions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		session := r.Header.Get(sessionHeader)
		// A session takes the requests of whoever opened it only, as on
		// the HTTP+SSE transport (sse.go): go-sdk binds a session to its
		// opener's OAuth client, but not one the owner opened with the
		// static token, which has none. A session the book does not hold
		// is no one's (404, and the client initializes again).
		if session != "" {
			switch user, ok := t.book.opener(session); {
			case !ok:
				http.Error(w, "session not found: initialize a new one", http.StatusNotFound)
				return
			case user != caller(r):
				http.Error(w, "session user mismatch: the session belongs to another client", http.StatusForbidden)
				return
			}
		}
		if session == "" {
			// Booked as the answer's headers go out, before the client
			// can send anything with the session's id.
			bw := &bookingWriter{ResponseWriter: w, book: func(id string) { t.book.opened(id, caller(r), t.opts.Now()) }}
			next.ServeHTTP(bw, r)
			if id := w.Header().Get(sessionHeader); id != "" {
				t.holdSession(r, id)
			}
			return
		}
		if r.Method == http.MethodDelete {
			next.ServeHTTP(w, r)
			return
		}
		end := t.book.begin(session, r.Method == http.MethodGet)
		defer func() { end(t.opts.Now()) }()
		if r.Method == http.MethodGet {
			var unwatch func()
			r, unwatch = t.grants.watchStream(r, "stream")
			defer unwatch()
		}
		next.ServeHTTP(w, r)
	})
}

// closeSessions ends the quiet Streamable HTTP sessions idle since before
// cutoff. The SDK then answers their ids with 404.
func (t *HTTP) closeSessions(cutoff time.Time, why string) {
	listed := t.opts.Now()
	open := map[string]bool{}
	byID := map[string]interface{ Close() error }{}
	for ss := range t.server.Sessions() {
		if id := ss.ID(); id != "" {
			open[id], byID[id] = true, ss
		}
	}
	for _, q := range t.book.quiet(open, listed) {
		if !q.last.Before(cutoff) {
			break
		}
		t.book.forget(q.id)
		byID[q.id].Close()
		t.log.Info("closed a quiet MCP session", "session", q.id, "idle", t.opts.Now().Sub(q.last).Round(time.Second), "why", why)
	}
}

// expireStreamless ends the sessions quiet for StreamlessTimeout.
func (t *HTTP) expireStreamless() {
	t.closeSessions(t.opts.Now().Add(-t.opts.StreamlessTimeout), "no stream and no request for "+t.opts.StreamlessTimeout.String())
}

// bookingWriter calls book with the session id of an initialize's answer
// when its headers are written, once.
type bookingWriter struct {
	http.ResponseWriter
	book   func(id string)
	booked bool
}

func (b *bookingWriter) note() {
	if !b.booked {
		b.booked = true
		if id := b.Header().Get(sessionHeader); id != "" {
			b.book(id)
		}
	}
}

func (b *bookingWriter) WriteHeader(code int) { b.note(); b.ResponseWriter.WriteHeader(code) }

func (b *bookingWriter) Write(p []byte) (int, error) { b.note(); return b.ResponseWriter.Write(p) }

func (b *bookingWriter) Flush() { b.note(); _ = http.NewResponseController(b.ResponseWriter).Flush() }

func (b *bookingWriter) Unwrap() http.ResponseWriter { return b.ResponseWriter }
