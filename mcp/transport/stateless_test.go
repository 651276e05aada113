package transport

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestSDKStatefulHandlerRefusesStatelessRequests: the SDK's stateful
// Streamable HTTP handler refuses a request of protocol 2026-07-28, so
// the front sends those to a stateless handler (stateless.go). When this
// fails, one SDK handler serves both and stateless.go may go.
func TestSDKStatefulHandlerRefusesStatelessRequests(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer ts.Close()
	code, _, body := mcptest.RawPost(t, ts.URL, map[string]string{"Mcp-Protocol-Version": mcptest.StatelessProtocol, "Mcp-Method": "tools/list"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+mcptest.StatelessProtocol+`"}}}`)
	if code != http.StatusBadRequest || !strings.Contains(body, fmt.Sprint(sdk.CodeUnsupportedProtocolVersion)) {
		t.Errorf("the go-sdk's stateful handler answers a %s request %d %s: if it serves it, stateless.go may go", mcptest.StatelessProtocol, code, body)
	}
}

// TestStatelessUnknownMethod404: on protocol 2026-07-28 a call of a method
// the hub does not serve is HTTP 404 with JSON-RPC -32601 and its id, as
// SEP-2575 asks (the conformance suite's server-stateless,
// sep-2575-http-server-method-not-found-404); on older protocols, over a
// session, it stays HTTP 200 with -32601.
func TestStatelessUnknownMethod404(t *testing.T) {
	_, ts := serve(t, Options{})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	req := testutil.Request{Method: "POST", Path: "/mcp", Header: map[string]string{"Mcp-Protocol-Version": "2026-07-28"},
		Body: `{"jsonrpc":"2.0","id":601,"method":"unknown/method","params":{` + meta + `}}`}
	code, _, body := testutil.Do(t, ts.URL, req)
	if code != http.StatusNotFound || !strings.Contains(body, `"id":601`) || !strings.Contains(body, `"code":-32601`) {
		t.Errorf("2026-07-28, unknown method: %d %s; want 404 with -32601 and id 601", code, body)
	}
	init := testutil.Request{Method: "POST", Path: "/mcp",
		Body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`}
	_, hdr, _ := testutil.Do(t, ts.URL, init)
	session := hdr.Get(mcptest.SessionHeader)
	req = testutil.Request{Method: "POST", Path: "/mcp", Header: map[string]string{"Mcp-Protocol-Version": "2025-11-25", mcptest.SessionHeader: session},
		Body: `{"jsonrpc":"2.0","id":7,"method":"unknown/method"}`}
	if code, _, body := testutil.Do(t, ts.URL, req); code != http.StatusOK || !strings.Contains(body, `"code":-32601`) {
		t.Errorf("2025-11-25, unknown method: %d %s; want 200 with -32601", code, body)
	}
}
