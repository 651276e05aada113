package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestNewestProtocolBesideOlder: over real HTTP on /mcp, the go-sdk client
// on 2026-07-28 is served statelessly on that protocol (no session id),
// one on 2025-11-25 gets its session, side by side; both call get_climate,
// both hear of new readings of the zone they subscribed to, and a client
// that goes away with its subscription open leaves nothing behind.
func TestNewestProtocolBesideOlder(t *testing.T) {
	h := newTestHub(t)
	ctx := context.Background()
	for _, c := range []struct{ asked, want string }{
		{"2026-07-28", "2026-07-28"},
		{"2025-11-25", "2025-11-25"},
	} {
		t.Run(c.asked, func(t *testing.T) {
			var box inbox
			client := sdk.NewClient(&sdk.Implementation{Name: "climated-test", Version: "1"}, box.options())
			rt := &recordSessions{next: http.DefaultTransport}
			cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp", HTTPClient: &http.Client{Transport: rt}},
				&sdk.ClientSessionOptions{ProtocolVersion: c.asked})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			if got := cs.InitializeResult().ProtocolVersion; got != c.want {
				t.Fatalf("protocol %s, want %s", got, c.want)
			}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
			if err != nil || res.IsError {
				t.Fatalf("get_climate: %v %v", err, res)
			}
			if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: ZoneURI("Indoor")}); err != nil {
				t.Fatalf("subscribe: %v", err)
			}
			untilUpdate(t, h, &box, "Indoor")
			rt.mu.Lock()
			ids := rt.ids
			rt.mu.Unlock()
			if stateless := len(ids) == 0; stateless != (c.want >= "2026-07-28") {
				t.Errorf("session ids %v on protocol %s", ids, c.want)
			}
			if err := cs.Close(); err != nil {
				t.Logf("close: %v", err)
			}
			testutil.WaitFor(t, "no session left", func() bool { return h.srv.Sessions() == 0 })
		})
	}
}

// recordSessions notes the session ids the hub hands out.
type recordSessions struct {
	next http.RoundTripper
	mu   sync.Mutex
	ids  []string
}

func (r *recordSessions) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err == nil && resp.Header.Get(mcptest.SessionHeader) != "" {
		r.mu.Lock()
		r.ids = append(r.ids, resp.Header.Get(mcptest.SessionHeader))
		r.mu.Unlock()
	}
	return resp, err
}

// TestSDKStatefulHandlerRefusesStatelessRequests: the SDK's stateful
// Streamable HTTP handler refuses a request of protocol 2026-07-28, so
// the front sends those to a stateless handler (transport/stateless.go). When this
// fails, one SDK handler serves both and transport/stateless.go may go.
func TestSDKStatefulHandlerRefusesStatelessRequests(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer ts.Close()
	code, _, body := mcptest.RawPost(t, ts.URL, map[string]string{"Mcp-Protocol-Version": mcptest.StatelessProtocol, "Mcp-Method": "tools/list"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+mcptest.StatelessProtocol+`"}}}`)
	if code != http.StatusBadRequest || !strings.Contains(body, fmt.Sprint(sdk.CodeUnsupportedProtocolVersion)) {
		t.Errorf("the go-sdk's stateful handler answers a %s request %d %s: if it serves it, transport/stateless.go may go", mcptest.StatelessProtocol, code, body)
	}
}

// TestStatelessUnknownMethod404: on protocol 2026-07-28 a call of a method
// the hub does not serve is HTTP 404 with JSON-RPC -32601 and its id, as
// SEP-2575 asks (the conformance suite's server-stateless,
// sep-2575-http-server-method-not-found-404); on older protocols, over a
// session, it stays HTTP 200 with -32601.
func TestStatelessUnknownMethod404(t *testing.T) {
	h := newTestHub(t)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	req := testutil.Request{Method: "POST", Path: "/mcp", Header: map[string]string{"Mcp-Protocol-Version": "2026-07-28"},
		Body: `{"jsonrpc":"2.0","id":601,"method":"unknown/method","params":{` + meta + `}}`}
	code, _, body := testutil.Do(t, h.http.URL, req)
	if code != http.StatusNotFound || !strings.Contains(body, `"id":601`) || !strings.Contains(body, `"code":-32601`) {
		t.Errorf("2026-07-28, unknown method: %d %s; want 404 with -32601 and id 601", code, body)
	}
	init := testutil.Request{Method: "POST", Path: "/mcp",
		Body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`}
	_, hdr, _ := testutil.Do(t, h.http.URL, init)
	session := hdr.Get(mcptest.SessionHeader)
	req = testutil.Request{Method: "POST", Path: "/mcp", Header: map[string]string{"Mcp-Protocol-Version": "2025-11-25", mcptest.SessionHeader: session},
		Body: `{"jsonrpc":"2.0","id":7,"method":"unknown/method"}`}
	if code, _, body := testutil.Do(t, h.http.URL, req); code != http.StatusOK || !strings.Contains(body, `"code":-32601`) {
		t.Errorf("2025-11-25, unknown method: %d %s; want 200 with -32601", code, body)
	}
}
