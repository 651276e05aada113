package transport

import (
	"net/http"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestIdleStreamableSessionsAreReclaimed: a client that initialises and
// goes away leaves nothing behind once the idle timeout has passed.
func TestIdleStreamableSessionsAreReclaimed(t *testing.T) {
	_, ts := serve(t, Options{SessionTimeout: 100 * time.Millisecond})

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
	srv, ts := serve(t, Options{})
	stream := mcptest.OpenSSE(t, ts.URL)
	endpoint := ts.URL + stream.Next().Data
	stream.Resp.Body.Close()
	testutil.WaitFor(t, "session gone after the stream closed", func() bool {
		code, _ := mcptest.Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		return code == http.StatusNotFound
	})
	// The stream's handler forgets the session as it returns, which may
	// come just after the 404.
	testutil.WaitFor(t, "no SSE session left", func() bool { return srv.sseSessions() == 0 })
}
