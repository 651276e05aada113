package transport

import (
	"fmt"
	"net/http"
	"sync"
)

// callLimit counts the calls each session has in flight: taken when a
// call arrives (each call of a batch counts), given back when its answer
// has been written. Over the SSE transport a call is answered 202 at once
// and runs afterwards, so the count there is of calls accepted and not yet
// answered on the stream; that is what bounds the work a session that
// never reads its stream can make the hub hold.
type callLimit struct {
	max int

	mu sync.Mutex
	n  map[string]int
}

func newCallLimit(max int) *callLimit { return &callLimit{max: max, n: map[string]int{}} }

// take reserves n calls for session, or none when that would pass the limit.
func (l *callLimit) take(session string, n int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[session]+n > l.max {
		return false
	}
	l.n[session] += n
	return true
}

// give returns n calls of session.
func (l *callLimit) give(session string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[session] -= n; l.n[session] <= 0 {
		delete(l.n, session)
	}
}

// refuse answers a POST that would take its session past the limit.
func (l *callLimit) refuse(w http.ResponseWriter, calls int) {
	w.Header().Set("Retry-After", "1")
	msg := fmt.Sprintf("too many calls in flight for this session (limit %d): wait for answers before sending more", l.max)
	if calls > l.max {
		msg = fmt.Sprintf("a batch of %d calls is more than a session may have in flight (limit %d): send smaller batches", calls, l.max)
	}
	http.Error(w, msg, http.StatusTooManyRequests)
}
