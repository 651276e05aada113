package transport

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStreamableSessionGateFailsClosed: a Streamable HTTP session takes
// requests only from whoever the book holds as its opener; a session the
// book does not hold (its entry dropped, as a sweep of quiet sessions
// that listed the SDK's sessions before this one opened did) is refused
// to everyone, never taken as anyone's. Under the race run an OAuth
// client's ping was taken by the owner's session.
func TestStreamableSessionGateFailsClosed(t *testing.T) {
	srv, _ := serve(t, Options{})
	ts := ownerOrClientB(t, srv)
	post := func(token, session, body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if session != "" {
			req.Header.Set(sessionHeader, session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get(sessionHeader)
	}
	code, id := post("owner", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"owner","version":"1"}}}`)
	if code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d, session %q", code, id)
	}
	post("owner", id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	if code, _ := post("owner", id, ping); code != http.StatusOK {
		t.Fatalf("the owner's ping on its session: %d, want 200", code)
	}
	if code, _ := post("b", id, ping); code != http.StatusForbidden {
		t.Errorf("an OAuth client's ping on the owner's session: %d, want 403", code)
	}
	// A sweep whose list of the SDK's sessions was taken before this one
	// opened leaves it alone.
	srv.book.quiet(map[string]bool{}, time.Now().Add(-time.Minute))
	if code, _ := post("b", id, ping); code != http.StatusForbidden {
		t.Errorf("an OAuth client's ping on the owner's session after a sweep: %d, want 403", code)
	}
	if code, _ := post("owner", id, ping); code != http.StatusOK {
		t.Errorf("the owner's ping on its session after a sweep: %d, want 200", code)
	}
	// A session the book does not hold is no one's.
	srv.book.forget(id)
	if code, _ := post("b", id, ping); code == http.StatusOK {
		t.Errorf("an OAuth client's ping on a session the book does not hold: %d, want a refusal", code)
	}
}
