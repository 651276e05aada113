package transport

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// TestSSESessionBoundToItsClient: an HTTP+SSE session opened with one
// OAuth client's token takes messages only with that client's tokens, as
// the SDK's Streamable HTTP handler refuses another user's request on a
// session ("session user mismatch", 403). Found by the adversarial pass of
// an adversarial pass: client B's token (and the static token) POSTed to client A's
// /message?session_id=… got 202, and the message ran in A's session, its
// answer on A's stream. The session id travels in a URL, which proxies and
// tunnels log.
func TestSSESessionBoundToItsClient(t *testing.T) {
	srv, _ := serve(t, Options{})
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token == "a" || token == "b" {
			return &auth.TokenInfo{UserID: "client-" + token, Expiration: time.Now().Add(time.Hour)}, nil
		}
		return nil, auth.ErrInvalidToken
	}
	ts := httptest.NewServer(auth.RequireBearerToken(verify, nil)(srv.Handler()))
	t.Cleanup(ts.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/sse", nil)
	req.Header.Set("Authorization", "Bearer a")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	endpoint := ""
	for sc := bufio.NewScanner(resp.Body); endpoint == "" && sc.Scan(); {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			endpoint = data
		}
	}
	if !strings.Contains(endpoint, "session_id=") {
		t.Fatalf("no endpoint event from GET /sse: %q", endpoint)
	}
	post := func(token string) int {
		body := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+endpoint, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := post("b"); got != http.StatusForbidden && got != http.StatusNotFound {
		t.Errorf("client b's token on client a's SSE session: %d, want 403 (or 404), as Streamable HTTP answers", got)
	}
	if got := post("a"); got != http.StatusAccepted {
		t.Errorf("client a's own token on its SSE session: %d, want 202", got)
	}
}

// TestSSEOwnerSessionRefusesOAuth: a session the owner opened with the
// hub's static token (the front passes it on without token information)
// takes no message signed with an OAuth client's token, and the owner's
// own messages still.
func TestSSEOwnerSessionRefusesOAuth(t *testing.T) {
	srv, _ := serve(t, Options{})
	ts := ownerOrClientB(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/sse", nil)
	req.Header.Set("Authorization", "Bearer owner")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	endpoint := ""
	for sc := bufio.NewScanner(resp.Body); endpoint == "" && sc.Scan(); {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			endpoint = data
		}
	}
	post := func(token string) int {
		body := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+endpoint, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := post("b"); got != http.StatusForbidden {
		t.Errorf("an OAuth client's token on the owner's SSE session: %d, want 403", got)
	}
	if got := post("owner"); got != http.StatusAccepted {
		t.Errorf("the owner's token on the owner's SSE session: %d, want 202", got)
	}
}
