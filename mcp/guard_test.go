package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestPanicInHandlerIsAnError: the server's handlers are guarded
// (transport.Guard): a tool's panic is an error, and the server serves on.
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

// TestRequestTimeout: the guard ends a call at Options.RequestTimeout.
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
