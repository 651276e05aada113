package front

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkRuns serves body with go-sdk's own Streamable HTTP handler (stateless,
// protocol version 2025-03-26, the newest that takes batches) and returns
// the tools it ran: the hub's tool names, each recording its call.
func sdkRuns(t *testing.T, body []byte) []string {
	var mu sync.Mutex
	var ran []string
	srv := sdk.NewServer(&sdk.Implementation{Name: "fuzz", Version: "1"}, nil)
	for _, name := range []string{"create_alert", "delete_alert", "list_alerts", "get_climate"} {
		srv.AddTool(&sdk.Tool{Name: name, InputSchema: &jsonschema.Schema{Type: "object"}},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				mu.Lock()
				ran = append(ran, name)
				mu.Unlock()
				return &sdk.CallToolResult{}, nil
			})
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: true})
	req := httptest.NewRequest("POST", "/mcp", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
	h.ServeHTTP(httptest.NewRecorder(), req)
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(ran)
}

// FuzzScopeGate feeds the gate's reading (calledTools) and go-sdk the same
// bodies: whenever the gate would pass a body on, every tool the SDK runs
// from it must be one the gate saw. Its seeds are the bodies that once
// went through: a batch with an undecodable decoy, a notification decoy,
// names the SDK reads case-sensitively.
func FuzzScopeGate(f *testing.F) {
	call := func(tool string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
	}
	for _, s := range []string{
		call("create_alert"),
		"[" + call("create_alert") + `,{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"x"}]`,
		"[" + call("delete_alert") + `,{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}]`,
		`[{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"x"},` + call("create_alert") + "]",
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"NAME":"get_climate","name":"create_alert"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools\/call","params":{"name":"create\u005falert"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_climate"},"method":"tools/call","params":{"name":"create_alert"}}`,
		`[` + call("get_climate") + `]`, `[]`, `{}`, `not json`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		seen, err := calledTools(body)
		if err != nil {
			return // refused: the SDK never sees it
		}
		for _, tool := range sdkRuns(t, body) {
			if !slices.Contains(seen, tool) {
				t.Fatalf("the SDK ran %s from %q; the gate saw %q", tool, body, seen)
			}
		}
	})
}
