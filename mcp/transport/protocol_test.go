package transport

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestUnknownMethodIsJSONRPCError: an unknown method is answered with
// JSON-RPC -32601 on every transport, never plain text or silence.
func TestUnknownMethodIsJSONRPCError(t *testing.T) {
	_, ts := serve(t, Options{})
	hdr := mcptest.StreamableSession(t, ts.URL)
	code, _, body := mcptest.RawPost(t, ts.URL+"/mcp", hdr, `{"jsonrpc":"2.0","id":3,"method":"climate/now","params":{}}`)
	if code != http.StatusOK || !strings.Contains(body, "climate/now") {
		t.Errorf("Streamable HTTP: %d %q, want 200 with an error naming the method", code, body)
	}
	mcptest.WantError(t, "Streamable HTTP", body, `3`, -32601)

	stream := mcptest.OpenSSE(t, ts.URL)
	endpoint := ts.URL + stream.Next().Data
	mcptest.SSEInitialize(t, stream, endpoint)
	if code, text := mcptest.Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":9,"method":"tools/frobnicate","params":{}}`); code != http.StatusAccepted {
		t.Fatalf("SSE: %d %q, want 202 and the error on the stream", code, text)
	}
	ev := stream.Next()
	mcptest.WantError(t, "SSE", ev.Data, `9`, -32601)
	if !strings.Contains(ev.Data, "tools/frobnicate") {
		t.Errorf("SSE error does not name the method: %s", ev.Data)
	}
}

// TestRequestIDsComeBackByteForByte sends ids the SDK would change and
// expects each back exactly, for results and errors, on both HTTP
// transports.
func TestRequestIDsComeBackByteForByte(t *testing.T) {
	_, ts := serve(t, Options{})
	hdr := mcptest.StreamableSession(t, ts.URL)
	stream := mcptest.OpenSSE(t, ts.URL)
	endpoint := ts.URL + stream.Next().Data
	mcptest.SSEInitialize(t, stream, endpoint)
	for _, id := range mcptest.OddIDs {
		ping := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`, id)
		unknown := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"no/such","params":{}}`, id)

		_, _, body := mcptest.RawPost(t, ts.URL+"/mcp", hdr, ping)
		if !strings.Contains(body, `"id":`+id+`,`) && !strings.Contains(body, `"id":`+id+`}`) {
			t.Errorf("Streamable HTTP ping with id %s answered %q", id, body)
		}
		_, _, body = mcptest.RawPost(t, ts.URL+"/mcp", hdr, unknown)
		mcptest.WantError(t, "Streamable HTTP unknown method, id "+id, body, id, -32601)

		if code, text := mcptest.Post(t, endpoint, "application/json", ping); code != http.StatusAccepted {
			t.Fatalf("SSE ping with id %s: %d %s", id, code, text)
		}
		if ev := stream.Next(); !strings.Contains(ev.Data, `"id":`+id+`,`) {
			t.Errorf("SSE ping with id %s answered %q", id, ev.Data)
		}
		mcptest.Post(t, endpoint, "application/json", unknown)
		mcptest.WantError(t, "SSE unknown method, id "+id, stream.Next().Data, id, -32601)
	}
	// Within a batch too (protocol 2025-03-26).
	old := mcptest.OldSession(t, ts.URL)
	_, _, body := mcptest.RawPost(t, ts.URL+"/mcp", old, `[{"jsonrpc":"2.0","id":1.5,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}]`)
	for _, id := range []string{`1.5`, `1`, `9007199254740993`} {
		if !strings.Contains(body, `"id":`+id+`,`) {
			t.Errorf("batch: id %s missing from %s", id, body)
		}
	}
}

// TestCallBeforeInitialize: a call other than initialize or ping before
// the handshake gets JSON-RPC -32600 (invalid request), not code 0.
func TestCallBeforeInitialize(t *testing.T) {
	_, ts := serve(t, Options{})
	code, _, body := mcptest.RawPost(t, ts.URL+"/mcp", nil, `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}`)
	if code != http.StatusBadRequest || !strings.Contains(body, "initialize") {
		t.Errorf("Streamable HTTP: %d %q, want 400 saying to initialize", code, body)
	}
	mcptest.WantError(t, "Streamable HTTP", body, `5`, -32600)

	stream := mcptest.OpenSSE(t, ts.URL)
	endpoint := ts.URL + stream.Next().Data
	if code, text := mcptest.Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{}}`); code != http.StatusAccepted {
		t.Fatalf("SSE: %d %q", code, text)
	}
	ev := stream.Next()
	mcptest.WantError(t, "SSE", ev.Data, `6`, -32600)
	// The session is still usable.
	mcptest.SSEInitialize(t, stream, endpoint)
}
