package transport

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestAbandonedSessionsDoNotLockClientsOut: 200 clients on one machine
// initialize and go away without a word (as the MCP Inspector CLI does per
// run); the next client is served at once, the machine's oldest session
// made room for it and its client gets 404, and Ready (/healthz) says ok
// throughout.
func TestAbandonedSessionsDoNotLockClientsOut(t *testing.T) {
	srv, ts := serve(t, Options{})
	var first string
	for i := range 200 {
		code, hdr, body := mcptest.RawPost(t, ts.URL+"/mcp", nil, mcptest.InitBody)
		if code != 200 {
			t.Fatalf("abandoned session %d: %d %s", i+1, code, body)
		}
		if i == 0 {
			first = hdr.Get(mcptest.SessionHeader)
		}
	}
	// The hub's book of holds is exact at once; the SDK's sessions end on
	// goroutines of their own (an evicted session's Close waits for its
	// calls in flight), so their count follows.
	if n := srv.holds.Held(); n > DefaultMaxClientSessions {
		t.Errorf("%d sessions held, one client's share %d", n, DefaultMaxClientSessions)
	}
	testutil.WaitFor(t, fmt.Sprintf("the SDK's open sessions down to one client's share (%d)", DefaultMaxClientSessions),
		func() bool { return srv.sessions() <= DefaultMaxClientSessions })
	cs := mcptest.Connect(t, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp"})
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatalf("new client after 200 abandoned sessions: %v", err)
	}
	code, _, body := mcptest.RawPost(t, ts.URL+"/mcp", map[string]string{mcptest.SessionHeader: first, "Mcp-Protocol-Version": "2025-06-18"}, mcptest.PingBody)
	if code != http.StatusNotFound {
		t.Errorf("the longest-idle session made room, its client should get 404: %d %s", code, body)
	}
}

// TestStreamlessSessionsExpireSooner: a session with no stream and no
// request ends after StreamlessTimeout, long before SessionTimeout; one
// that holds its GET stream stays.
func TestStreamlessSessionsExpireSooner(t *testing.T) {
	clock := &mcptest.FakeClock{T: time.Now()}
	srv, ts := serve(t, Options{Now: clock.Now})
	quiet := mcptest.SessionOpened(t, ts.URL)
	streaming := mcptest.SessionOpened(t, ts.URL)
	mcptest.GetStream(t, ts.URL, streaming)

	clock.Add(DefaultStreamlessTimeout - time.Second)
	srv.expireStreamless()
	if code, _, body := mcptest.RawPost(t, ts.URL+"/mcp", map[string]string{mcptest.SessionHeader: quiet, "Mcp-Protocol-Version": "2025-06-18"}, mcptest.PingBody); code != 200 {
		t.Fatalf("session quiet for less than %s: %d %s", DefaultStreamlessTimeout, code, body)
	}
	clock.Add(DefaultStreamlessTimeout + time.Second)
	srv.expireStreamless()
	if code, _, _ := mcptest.RawPost(t, ts.URL+"/mcp", map[string]string{mcptest.SessionHeader: quiet, "Mcp-Protocol-Version": "2025-06-18"}, mcptest.PingBody); code != http.StatusNotFound {
		t.Errorf("session quiet for over %s: %d, want 404", DefaultStreamlessTimeout, code)
	}
	if code, _, body := mcptest.RawPost(t, ts.URL+"/mcp", map[string]string{mcptest.SessionHeader: streaming, "Mcp-Protocol-Version": "2025-06-18"}, mcptest.PingBody); code != 200 {
		t.Errorf("session with its stream open: %d %s", code, body)
	}
}

// TestSDKSessionTimeoutIgnoresStreams: the SDK's SessionTimeout ends a
// session whose GET stream is open, as it ends one that has gone, so
// climated keeps its own book of streams (transport/idle.go).
func TestSDKSessionTimeoutIgnoresStreams(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{SessionTimeout: 200 * time.Millisecond}))
	defer ts.Close()
	id := mcptest.SessionOpened(t, ts.URL)
	mcptest.GetStream(t, ts.URL, id)
	testutil.WaitFor(t, "the SDK ends the session with its stream open", func() bool {
		for range srv.Sessions() {
			return false
		}
		return true
	})
}
