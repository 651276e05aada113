package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport"
)

const pingBody = `{"jsonrpc":"2.0","id":9,"method":"ping"}`

// TestAbandonedSessionsDoNotLockClientsOut: 200 clients on one machine
// initialize and go away without a word (as the MCP Inspector CLI does per
// run); the next client is served at once, the machine's oldest session
// made room for it and its client gets 404, and Ready (/healthz) says ok
// throughout.
func TestAbandonedSessionsDoNotLockClientsOut(t *testing.T) {
	srv, ts := hubWith(t, Options{})
	var first string
	for i := range 200 {
		code, hdr, body := rawPost(t, ts.URL+"/mcp", nil, initBody)
		if code != 200 {
			t.Fatalf("abandoned session %d: %d %s", i+1, code, body)
		}
		if i == 0 {
			first = hdr.Get(sessionHeader)
		}
	}
	if n := srv.Sessions(); n > transport.DefaultMaxClientSessions {
		t.Errorf("%d sessions open, one client's share %d", n, transport.DefaultMaxClientSessions)
	}
	cs := connect(t, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp"})
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatalf("new client after 200 abandoned sessions: %v", err)
	}
	code, _, body := rawPost(t, ts.URL+"/mcp", map[string]string{sessionHeader: first, "Mcp-Protocol-Version": "2025-06-18"}, pingBody)
	if code != http.StatusNotFound {
		t.Errorf("the longest-idle session made room, its client should get 404: %d %s", code, body)
	}
}

// TestStreamlessSessionsExpireSooner: a session with no stream and no
// request ends after StreamlessTimeout, long before SessionTimeout; one
// that holds its GET stream stays.
func TestStreamlessSessionsExpireSooner(t *testing.T) {
	clock := &fakeClock{t: time.Now()}
	srv, ts := hubWith(t, Options{Now: clock.now})
	quiet := sessionOpened(t, ts.URL)
	streaming := sessionOpened(t, ts.URL)
	getStream(t, ts.URL, streaming)

	clock.add(transport.DefaultStreamlessTimeout - time.Second)
	srv.http.ExpireStreamless()
	if code, _, body := rawPost(t, ts.URL+"/mcp", map[string]string{sessionHeader: quiet, "Mcp-Protocol-Version": "2025-06-18"}, pingBody); code != 200 {
		t.Fatalf("session quiet for less than %s: %d %s", transport.DefaultStreamlessTimeout, code, body)
	}
	clock.add(transport.DefaultStreamlessTimeout + time.Second)
	srv.http.ExpireStreamless()
	if code, _, _ := rawPost(t, ts.URL+"/mcp", map[string]string{sessionHeader: quiet, "Mcp-Protocol-Version": "2025-06-18"}, pingBody); code != http.StatusNotFound {
		t.Errorf("session quiet for over %s: %d, want 404", transport.DefaultStreamlessTimeout, code)
	}
	if code, _, body := rawPost(t, ts.URL+"/mcp", map[string]string{sessionHeader: streaming, "Mcp-Protocol-Version": "2025-06-18"}, pingBody); code != 200 {
		t.Errorf("session with its stream open: %d %s", code, body)
	}
}

// getStream opens the GET stream of session, closed when the test ends.
func getStream(t *testing.T, base, session string) {
	t.Helper()
	get, _ := http.NewRequest(http.MethodGet, base+"/mcp", nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set(sessionHeader, session)
	get.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(get)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %v %v", resp, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
}

func sessionOpened(t *testing.T, base string) string {
	t.Helper()
	code, hdr, body := rawPost(t, base+"/mcp", nil, initBody)
	if code != 200 || hdr.Get(sessionHeader) == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	return hdr.Get(sessionHeader)
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestSDKSessionTimeoutIgnoresStreams: the SDK's SessionTimeout ends a
// session whose GET stream is open, as it ends one that has gone, so
// climated keeps its own book of streams (transport/idle.go).
func TestSDKSessionTimeoutIgnoresStreams(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{SessionTimeout: 200 * time.Millisecond}))
	defer ts.Close()
	id := sessionOpened(t, ts.URL)
	getStream(t, ts.URL, id)
	testutil.WaitFor(t, "the SDK ends the session with its stream open", func() bool {
		for range srv.Sessions() {
			return false
		}
		return true
	})
}
