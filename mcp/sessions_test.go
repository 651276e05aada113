package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestIdleStreamableSessionsAreReclaimed: a client that initialises and
// goes away leaves nothing behind once the idle timeout has passed.
func TestIdleStreamableSessionsAreReclaimed(t *testing.T) {
	store, err := hub.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(context.Background())
	srv := New(t.Context(), store, &Options{SessionTimeout: 100 * time.Millisecond})
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	resp, _ := mcptest.MCPPost(t, ts.URL, "", mcptest.InitBody)
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatal("no session id")
	}
	if resp, body := mcptest.MCPPost(t, ts.URL, session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); resp.StatusCode != 200 {
		t.Fatalf("ping within the timeout: %s %s", resp.Status, body)
	}
	testutil.WaitFor(t, "abandoned session reclaimed", func() bool {
		resp, _ := mcptest.MCPPost(t, ts.URL, session, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
		if resp.StatusCode == http.StatusOK {
			// The ping itself counted as activity: wait longer than the timeout.
			time.Sleep(200 * time.Millisecond)
			return false
		}
		return resp.StatusCode == http.StatusNotFound
	})
}

// TestSSESessionEndsWithItsStream: when the client drops the event stream,
// its session_id is no longer accepted.
func TestSSESessionEndsWithItsStream(t *testing.T) {
	h := newTestHub(t)
	stream := mcptest.OpenSSE(t, h.http.URL)
	endpoint := h.http.URL + stream.Next().Data
	stream.Resp.Body.Close()
	testutil.WaitFor(t, "session gone after the stream closed", func() bool {
		code, _ := mcptest.Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		return code == http.StatusNotFound
	})
	// The stream's handler forgets the session as it returns, which may
	// come just after the 404.
	testutil.WaitFor(t, "no SSE session left", func() bool { return h.srv.http.SSESessions() == 0 })
}
