// Package testutil holds what the project's tests share: waiting for a
// condition, a stopped clock, a plain HTTP request to a test server, a
// buffer to log into, MQTT brokers and the repository's documents. It
// imports nothing of the project, so that the tests of every package can
// use it.
package testutil

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Patience is how long WaitFor waits: long enough for a loaded 2-core
// machine under the race detector; a condition that holds ends the wait
// at once, so only a failing test waits it out.
const Patience = 15 * time.Second

// WaitFor polls cond every 5 ms until it holds, and fails t, naming what
// it waited for, once Patience has passed.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	WaitWithin(t, Patience, what, cond)
}

// WaitWithin is WaitFor with a patience of its own, for a condition that
// takes longer than Patience when all is well (a store that starts, a
// week of readings sent).
func WaitWithin(t testing.TB, patience time.Duration, what string, cond func() bool) {
	t.Helper()
	if !EventuallyWithin(patience, cond) {
		t.Fatalf("%s: not within %s", what, patience)
	}
}

// Eventually polls cond every 5 ms until it holds or Patience has passed,
// and reports whether it held: WaitFor for a caller that says itself
// what failed, or goes on.
func Eventually(cond func() bool) bool {
	return EventuallyWithin(Patience, cond)
}

// EventuallyWithin is Eventually with a patience of its own.
func EventuallyWithin(patience time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			return cond()
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// FixedClock is a clock stopped at at.
func FixedClock(at time.Time) func() time.Time { return func() time.Time { return at } }

// Request is one HTTP request of a test: a Host header sets the request's
// host.
type Request struct {
	Method, Path, Body string
	Header             map[string]string
}

// Do sends r to base as an MCP client would (JSON, and event streams
// accepted) and returns the status, the headers and what of the body is
// there at once: an event stream stays open, so it is not read to its end.
func Do(t testing.TB, base string, r Request) (int, http.Header, string) {
	t.Helper()
	var body io.Reader
	if r.Body != "" {
		body = strings.NewReader(r.Body)
	}
	hr, err := http.NewRequest(r.Method, base+r.Path, body)
	if err != nil {
		t.Fatal(err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range r.Header {
		if k == "Host" {
			hr.Host = v
		} else {
			hr.Header.Set(k, v)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(hr.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 4096)
	n, _ := resp.Body.Read(buf)
	return resp.StatusCode, resp.Header, string(buf[:n])
}
