package transport

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestInFlightLimit: two POSTs of a session whose bodies are still
// arriving hold its two calls; a third is refused 429 until they end.
func TestInFlightLimit(t *testing.T) {
	_, ts := serve(t, Options{MaxInFlight: 2})
	resp, _ := mcptest.MCPPost(t, ts.URL, "", mcptest.InitBody)
	session := resp.Header.Get("Mcp-Session-Id")
	// Two requests whose bodies have not finished arriving are in flight.
	var writers []*io.PipeWriter
	// Should a check fail, the bodies end before the server closes (the
	// cleanups run last first), or its Close would wait for them for ever.
	t.Cleanup(func() {
		for _, pw := range writers {
			pw.CloseWithError(io.ErrUnexpectedEOF)
		}
	})
	for range 2 {
		pr, pw := io.Pipe()
		writers = append(writers, pw)
		r, _ := http.NewRequest("POST", ts.URL+"/mcp", pr)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Mcp-Session-Id", session)
		go func() {
			if resp, err := http.DefaultClient.Do(r); err == nil {
				resp.Body.Close()
			}
		}()
		pw.Write([]byte(`{"jsonrpc":"2.0",`))
	}
	testutil.WaitFor(t, "third request refused", func() bool {
		code, _, body := testutil.Do(t, ts.URL, testutil.Request{Method: "POST", Path: "/mcp", Body: `{"jsonrpc":"2.0","id":9,"method":"ping"}`,
			Header: map[string]string{"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}})
		return code == 429 && strings.Contains(body, "limit 2")
	})
	for _, pw := range writers {
		pw.Write([]byte(`"id":1,"method":"ping"}`))
		pw.Close()
	}
	testutil.WaitFor(t, "requests accepted again", func() bool {
		code, _, _ := testutil.Do(t, ts.URL, testutil.Request{Method: "POST", Path: "/mcp", Body: `{"jsonrpc":"2.0","id":10,"method":"ping"}`,
			Header: map[string]string{"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}})
		return code == 200
	})
}

// TestAbandonedSessionsAreReclaimed opens 200 sessions, abandons them all
// and expects every one gone once the idle timeout has passed.
func TestAbandonedSessionsAreReclaimed(t *testing.T) {
	srv, ts := serve(t, Options{MaxSessions: 250, MaxClientSessions: 250, SessionTimeout: 200 * time.Millisecond})
	var ids []string
	for i := range 200 {
		resp, body := mcptest.MCPPost(t, ts.URL, "", mcptest.InitBody)
		if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") == "" {
			t.Fatalf("session %d: %s %s", i, resp.Status, body)
		}
		ids = append(ids, resp.Header.Get("Mcp-Session-Id"))
	}
	testutil.WaitFor(t, "sessions reclaimed", func() bool { return srv.sessions() == 0 })
	for _, id := range []string{ids[0], ids[99], ids[199]} {
		if resp, _ := mcptest.MCPPost(t, ts.URL, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); resp.StatusCode != http.StatusNotFound {
			t.Errorf("abandoned session %s still answers: %s", id, resp.Status)
		}
	}
}

// TestGuard: a handler that panics is an error naming the method, and one
// past its time has its context ended; a listen has no time limit.
func TestGuard(t *testing.T) {
	guard := Guard(50*time.Millisecond, slog.New(slog.DiscardHandler))
	explode := guard(func(context.Context, string, sdk.Request) (sdk.Result, error) { panic("boom") })
	if _, err := explode(context.Background(), "tools/call", nil); err == nil || !strings.Contains(err.Error(), "internal error in tools/call") {
		t.Errorf("a handler's panic: %v", err)
	}
	deadline := guard(func(ctx context.Context, _ string, _ sdk.Request) (sdk.Result, error) {
		_, ok := ctx.Deadline()
		return nil, fmt.Errorf("deadline %v", ok)
	})
	for method, want := range map[string]string{"tools/call": "deadline true", methodListen: "deadline false"} {
		if _, err := deadline(context.Background(), method, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", method, err, want)
		}
	}
}
