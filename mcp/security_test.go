package mcp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// hubWith serves a real store with the given options.
func hubWith(t *testing.T, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	// One clock for the hub and the server, as climated serve has: the hub
	// judges readings ahead of its clock (climate.NewestCurrent) by it.
	store, err := hub.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), &history.Options{Now: opts.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &opts)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close(); store.Close(context.Background()) })
	return srv, ts
}

func TestInFlightLimit(t *testing.T) {
	_, ts := hubWith(t, Options{MaxInFlight: 2})
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

func TestPanicInHandlerIsAnError(t *testing.T) {
	h := newTestHub(t)
	sdk.AddTool(h.srv.MCP(), &sdk.Tool{Name: "explode"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		panic("boom")
	})
	cs := mcptest.Connect(t, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp"})
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "explode"})
	if err == nil || !strings.Contains(err.Error(), "internal error in tools/call") {
		t.Errorf("panicking tool: %v", err)
	}
	if res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: ToolGetClimate}); err != nil || res.IsError {
		t.Fatalf("after the panic: %v", err)
	}
}

func TestRequestTimeout(t *testing.T) {
	srv, ts := hubWith(t, Options{RequestTimeout: 50 * time.Millisecond})
	sdk.AddTool(srv.MCP(), &sdk.Tool{Name: "dawdle"}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(10 * time.Second):
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "finished"}}}, nil, nil
		}
	})
	cs := mcptest.Connect(t, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp"})
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "dawdle"})
	if err == nil && (!res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "deadline exceeded")) {
		t.Errorf("a request past its time: %v %+v", err, res.Content)
	}
}

// TestAbandonedSessionsAreReclaimed opens 200 sessions, abandons them all
// and expects every one gone once the idle timeout has passed.
func TestAbandonedSessionsAreReclaimed(t *testing.T) {
	srv, ts := hubWith(t, Options{MaxSessions: 250, MaxClientSessions: 250, SessionTimeout: 200 * time.Millisecond})
	var ids []string
	for i := range 200 {
		resp, body := mcptest.MCPPost(t, ts.URL, "", mcptest.InitBody)
		if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") == "" {
			t.Fatalf("session %d: %s %s", i, resp.Status, body)
		}
		ids = append(ids, resp.Header.Get("Mcp-Session-Id"))
	}
	count := func() int {
		n := 0
		for range srv.MCP().Sessions() {
			n++
		}
		return n
	}
	testutil.WaitFor(t, "sessions reclaimed", func() bool { return count() == 0 })
	for _, id := range []string{ids[0], ids[99], ids[199]} {
		if resp, _ := mcptest.MCPPost(t, ts.URL, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); resp.StatusCode != http.StatusNotFound {
			t.Errorf("abandoned session %s still answers: %s", id, resp.Status)
		}
	}
}
