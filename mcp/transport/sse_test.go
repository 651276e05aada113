package transport

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestSSEFlowOfSeed follows the HTTP+SSE transport (MCP 2024-11-05) step by step with plain HTTP.
func TestSSEFlowOfSeed(t *testing.T) {
	_, ts := serve(t, Options{})
	stream := mcptest.OpenSSE(t, ts.URL)
	ev := stream.Next()
	if ev.Name != "endpoint" || !strings.HasPrefix(ev.Data, "/message?session_id=") {
		t.Fatalf("first event = %+v, want endpoint /message?session_id=…", ev)
	}
	endpoint := ts.URL + ev.Data

	call := func(id int, method, params string) map[string]any {
		t.Helper()
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
		if code, text := mcptest.Post(t, endpoint, "application/json", body); code != http.StatusAccepted {
			t.Fatalf("POST %s: %d %s, want 202", method, code, text)
		}
		ev := stream.Next()
		if ev.Name != "message" {
			t.Fatalf("event %+v, want a message", ev)
		}
		var msg map[string]any
		if err := json.Unmarshal([]byte(ev.Data), &msg); err != nil {
			t.Fatalf("event data %q: %v", ev.Data, err)
		}
		if msg["id"] != float64(id) {
			t.Fatalf("response id %v, want %d: %s", msg["id"], id, ev.Data)
		}
		return msg
	}
	init := call(1, "initialize", `{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"plain-http","version":"1"}}`)
	if v := init["result"].(map[string]any)["protocolVersion"]; v != "2024-11-05" {
		t.Errorf("negotiated %v", v)
	}
	if code, text := mcptest.Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", code, text)
	}
	list := call(7, "tools/list", `{}`)
	tools := list["result"].(map[string]any)["tools"].([]any)
	found := false
	for _, tool := range tools {
		found = found || tool.(map[string]any)["name"] == toolEcho
	}
	if !found {
		t.Fatalf("no echo among %v", tools)
	}
	res := call(8, "tools/call", `{"name":"echo","arguments":{"say":"21.7"}}`)
	sc := res["result"].(map[string]any)["structuredContent"].(map[string]any)
	if sc["say"] != "21.7" {
		t.Errorf("structuredContent = %v", sc)
	}
	// An unknown method is a JSON-RPC error on the stream, naming it.
	frob := call(9, "tools/frobnicate", `{}`)
	if e, ok := frob["error"].(map[string]any); !ok || e["code"] != float64(-32601) || !strings.Contains(fmt.Sprint(e["message"]), "tools/frobnicate") {
		t.Errorf("unknown method answered %v, want -32601 naming it", frob)
	}
	// An unknown tool is a JSON-RPC error on the stream.
	unknown := call(10, "tools/call", `{"name":"get_weather","arguments":{}}`)
	if e, ok := unknown["error"].(map[string]any); !ok || !strings.Contains(fmt.Sprint(e["message"]), "get_weather") {
		t.Errorf("unknown tool answered %v, want an error naming it", unknown)
	}
}

func TestSSEBadRequests(t *testing.T) {
	_, ts := serve(t, Options{})
	stream := mcptest.OpenSSE(t, ts.URL)
	endpoint := ts.URL + stream.Next().Data
	cases := []struct {
		name, url, ctype, body string
		code                   int
		want                   string
	}{
		{"missing session_id", ts.URL + "/message", "application/json", `{}`, 400, "missing session_id"},
		{"unknown session_id", ts.URL + "/message?session_id=nope", "application/json", `{}`, 404, `unknown session_id "nope"`},
		{"malformed JSON", endpoint, "application/json", `{"jsonrpc":"2.0","id":1,`, 400, "not a JSON-RPC 2.0 message"},
		{"not JSON-RPC", endpoint, "application/json", `[1,2,3]`, 400, "not a JSON-RPC 2.0 message"},
		{"wrong content type", endpoint, "text/plain", `{}`, 415, "application/json"},
		{"oversized body", endpoint, "application/json", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", DefaultMaxBodyBytes) + `"}}`, 413, "exceeds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, text := mcptest.Post(t, c.url, c.ctype, c.body)
			if code != c.code || !strings.Contains(text, c.want) {
				t.Errorf("got %d %q, want %d containing %q", code, text, c.code, c.want)
			}
		})
	}
	// The session survived all of it.
	if code, text := mcptest.Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`); code != 202 {
		t.Fatalf("initialize after bad requests: %d %s", code, text)
	}
	if ev := stream.Next(); !strings.Contains(ev.Data, `"protocolVersion"`) {
		t.Errorf("initialize response = %+v", ev)
	}
}

// TestSDKSSETransportDoesNotBoundCalls: the SDK's HTTP+SSE transport
// answers 202 to more calls of one session than DefaultMaxInFlight and
// holds them all, so climated serves the flow with its own transport
// (sse.go, sseconn.go). When this fails, the SDK's transport bounds the
// work behind its 202: see whether it also ends a session whose client
// stops reading (TestSSEStalledStreamEnds) before moving onto it.
func TestSDKSSETransportDoesNotBoundCalls(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	release := make(chan struct{})
	sdk.AddTool(srv, &sdk.Tool{Name: "hold"}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &sdk.CallToolResult{}, nil, nil
	})
	ts := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer ts.Close()
	defer close(release)
	req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	endpoint := ""
	for endpoint == "" {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
			endpoint = data
		}
	}
	go r.WriteTo(io.Discard) // the answers, unread
	mcptest.Post(t, ts.URL+endpoint, "application/json", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	mcptest.Post(t, ts.URL+endpoint, "application/json", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	accepted := 0
	for i := range 3 * DefaultMaxInFlight {
		if code, _ := mcptest.Post(t, ts.URL+endpoint, "application/json", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{}}}`, 10+i)); code == http.StatusAccepted {
			accepted++
		}
	}
	if accepted <= DefaultMaxInFlight {
		t.Errorf("the go-sdk's SSE transport accepted %d held calls of one session: it bounds them now", accepted)
	}
}
