package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// oddIDs are request ids the SDK does not carry through unchanged (it
// decodes numbers to float64 and keeps them as int64, and re-encodes
// strings); each must come back exactly as sent.
var oddIDs = []string{`1e308`, `1.5`, `9007199254740993`, `-0`, `1E2`, `1.0`, `"a\u0041"`, `"\u00e9"`, `7`, `"plain"`}

// wantError checks that answer, one JSON-RPC message (or an SSE event
// carrying one), is an error with code and the id rawID byte for byte.
func wantError(t *testing.T, what, answer, rawID string, code int) {
	t.Helper()
	data := answer
	if i := strings.Index(answer, "data: "); i >= 0 {
		data = strings.TrimSpace(strings.SplitN(answer[i+len("data: "):], "\n", 2)[0])
	}
	var msg struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(data), &msg); err != nil {
		t.Errorf("%s: answer %q is not a JSON-RPC message: %v", what, answer, err)
		return
	}
	if msg.Error == nil || msg.Error.Code != code {
		t.Errorf("%s: answer %s, want error code %d", what, data, code)
	}
	if string(msg.ID) != rawID {
		t.Errorf("%s: id came back as %s, want %s", what, msg.ID, rawID)
	}
}

// TestUnknownMethodIsJSONRPCError: an unknown method is answered with
// JSON-RPC -32601 on every transport, never plain text or silence.
func TestUnknownMethodIsJSONRPCError(t *testing.T) {
	h := newTestHub(t)
	hdr := streamableSession(t, h.http.URL)
	code, _, body := rawPost(t, h.http.URL+"/mcp", hdr, `{"jsonrpc":"2.0","id":3,"method":"climate/now","params":{}}`)
	if code != http.StatusOK || !strings.Contains(body, "climate/now") {
		t.Errorf("Streamable HTTP: %d %q, want 200 with an error naming the method", code, body)
	}
	wantError(t, "Streamable HTTP", body, `3`, -32601)

	stream := openSSE(t, h.http.URL)
	endpoint := h.http.URL + stream.next().data
	sseInitialize(t, stream, endpoint)
	if code, text := post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":9,"method":"tools/frobnicate","params":{}}`); code != http.StatusAccepted {
		t.Fatalf("SSE: %d %q, want 202 and the error on the stream", code, text)
	}
	ev := stream.next()
	wantError(t, "SSE", ev.data, `9`, -32601)
	if !strings.Contains(ev.data, "tools/frobnicate") {
		t.Errorf("SSE error does not name the method: %s", ev.data)
	}
}

// streamableSession opens an initialised Streamable HTTP session and
// returns the headers that address it.
func streamableSession(t *testing.T, base string) map[string]string {
	t.Helper()
	code, hdr, body := rawPost(t, base+"/mcp", nil, initBody)
	if code != 200 || hdr.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	h := map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-06-18"}
	rawPost(t, base+"/mcp", h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return h
}

// TestRequestIDsComeBackByteForByte sends ids the SDK would change and
// expects each back exactly, for results and errors, on both HTTP
// transports.
func TestRequestIDsComeBackByteForByte(t *testing.T) {
	h := newTestHub(t)
	hdr := streamableSession(t, h.http.URL)
	stream := openSSE(t, h.http.URL)
	endpoint := h.http.URL + stream.next().data
	sseInitialize(t, stream, endpoint)
	for _, id := range oddIDs {
		ping := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`, id)
		unknown := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"no/such","params":{}}`, id)

		_, _, body := rawPost(t, h.http.URL+"/mcp", hdr, ping)
		if !strings.Contains(body, `"id":`+id+`,`) && !strings.Contains(body, `"id":`+id+`}`) {
			t.Errorf("Streamable HTTP ping with id %s answered %q", id, body)
		}
		_, _, body = rawPost(t, h.http.URL+"/mcp", hdr, unknown)
		wantError(t, "Streamable HTTP unknown method, id "+id, body, id, -32601)

		if code, text := post(t, endpoint, "application/json", ping); code != http.StatusAccepted {
			t.Fatalf("SSE ping with id %s: %d %s", id, code, text)
		}
		if ev := stream.next(); !strings.Contains(ev.data, `"id":`+id+`,`) {
			t.Errorf("SSE ping with id %s answered %q", id, ev.data)
		}
		post(t, endpoint, "application/json", unknown)
		wantError(t, "SSE unknown method, id "+id, stream.next().data, id, -32601)
	}
	// Within a batch too (protocol 2025-03-26).
	old := oldSession(t, h.http.URL)
	_, _, body := rawPost(t, h.http.URL+"/mcp", old, `[{"jsonrpc":"2.0","id":1.5,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}]`)
	for _, id := range []string{`1.5`, `1`, `9007199254740993`} {
		if !strings.Contains(body, `"id":`+id+`,`) {
			t.Errorf("batch: id %s missing from %s", id, body)
		}
	}
}

// TestCallBeforeInitialize: a call other than initialize or ping before
// the handshake gets JSON-RPC -32600 (invalid request), not code 0.
func TestCallBeforeInitialize(t *testing.T) {
	h := newTestHub(t)
	code, _, body := rawPost(t, h.http.URL+"/mcp", nil, `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}`)
	if code != http.StatusBadRequest || !strings.Contains(body, "initialize") {
		t.Errorf("Streamable HTTP: %d %q, want 400 saying to initialize", code, body)
	}
	wantError(t, "Streamable HTTP", body, `5`, -32600)

	stream := openSSE(t, h.http.URL)
	endpoint := h.http.URL + stream.next().data
	if code, text := post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{}}`); code != http.StatusAccepted {
		t.Fatalf("SSE: %d %q", code, text)
	}
	ev := stream.next()
	wantError(t, "SSE", ev.data, `6`, -32600)
	// The session is still usable.
	sseInitialize(t, stream, endpoint)
}
