package mcptest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Names on the wire, as the transports give them.
const (
	SessionHeader     = "Mcp-Session-Id"
	StatelessProtocol = "2026-07-28" // the first protocol without sessions
	MethodListen      = "subscriptions/listen"
	// InitBody is an initialize at protocol 2025-06-18, PingBody a ping.
	InitBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"plain","version":"1"}}}`
	PingBody = `{"jsonrpc":"2.0","id":9,"method":"ping"}`
)

// RawPost sends body to /mcp with the given headers and reads the whole
// answer.
func RawPost(t *testing.T, url string, header map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		r.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(r.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read answer: %v", err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// MCPPost sends one JSON-RPC body to /mcp as a Streamable HTTP client would.
func MCPPost(t *testing.T, base, session, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// StreamableSession opens an initialised Streamable HTTP session and
// returns the headers that address it.
func StreamableSession(t *testing.T, base string) map[string]string {
	t.Helper()
	code, hdr, body := RawPost(t, base+"/mcp", nil, InitBody)
	if code != 200 || hdr.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	h := map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-06-18"}
	RawPost(t, base+"/mcp", h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return h
}

// OldSession opens a Streamable HTTP session at protocol 2025-03-26, the
// last one with batches.
func OldSession(t *testing.T, base string) map[string]string {
	t.Helper()
	code, hdr, body := RawPost(t, base+"/mcp", nil, strings.Replace(InitBody, "2025-06-18", "2025-03-26", 1))
	if code != 200 || hdr.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	h := map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-03-26"}
	RawPost(t, base+"/mcp", h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return h
}

// BatchOf is a batch of n pings, their ids from firstID on.
func BatchOf(n, firstID int) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, firstID+i)
	}
	return "[" + strings.Join(calls, ",") + "]"
}

// GetStream opens the GET stream of session, closed when the test ends.
func GetStream(t *testing.T, base, session string) {
	t.Helper()
	get, _ := http.NewRequest(http.MethodGet, base+"/mcp", nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set(SessionHeader, session)
	get.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(get)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %v %v", resp, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
}

// SessionOpened initializes a Streamable HTTP session at base (its
// notifications/initialized not sent) and returns its id.
func SessionOpened(t *testing.T, base string) string {
	t.Helper()
	code, hdr, body := RawPost(t, base+"/mcp", nil, InitBody)
	if code != 200 || hdr.Get(SessionHeader) == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	return hdr.Get(SessionHeader)
}
