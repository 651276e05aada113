package main

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// budgetToolsList is what tools/list may put before a model on the served
// hub, in tokens. What is counted: the `tools` array of the tools/list
// result as a go-sdk client receives it over Streamable HTTP from a running
// hub (serve, default configuration, so with the alert tools), encoded
// again as compact JSON, at (bytes + 3) / 4 tokens: the measure of package
// mcp's TestContextBudget. Tools whose _meta.ui.visibility is exactly
// ["app"] (MCP Apps' app-only tools) are counted apart: hosts do not put
// them before the model, so they are reported but not held to the budget.
const budgetToolsList = 1500

// servedSession is a go-sdk client's session over Streamable HTTP with a
// hub served with the default configuration on a day of demo history,
// closed when the test ends.
func servedSession(t *testing.T) *sdk.ClientSession {
	t.Helper()
	h := startHub(t, demoConfig(t))
	client := sdk.NewClient(&sdk.Implementation{Name: t.Name(), Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: "http://" + h.Addr.String() + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// toolTokens is the measure of mcp's budget test: (bytes + 3) / 4 of
// compact JSON.
func toolTokens(t *testing.T, v any) int {
	t.Helper()
	if tools, ok := v.([]*sdk.Tool); ok && len(tools) == 0 {
		return 0
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return (len(b) + 3) / 4
}

// appOnly reports whether a tool is for an MCP App's view alone: its
// _meta.ui.visibility is exactly ["app"].
func appOnly(tool *sdk.Tool) bool {
	ui, _ := tool.Meta["ui"].(map[string]any)
	vis, _ := ui["visibility"].([]any)
	return slices.Equal(vis, []any{"app"})
}

// TestToolsListBudgetServed measures tools/list on the hub people run, over
// HTTP, with every tool it lists: each tool's figure in the log, the
// model's total held to budgetToolsList, the app-only tools' apart.
func TestToolsListBudgetServed(t *testing.T) {
	cs := servedSession(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.NextCursor != "" {
		t.Fatal("tools/list is paged: the budget counts the first page alone")
	}
	var model, app []*sdk.Tool
	for _, tool := range res.Tools {
		n := toolTokens(t, tool)
		if appOnly(tool) {
			app = append(app, tool)
			t.Logf("%-24s %4d tokens (app-only)", tool.Name, n)
			continue
		}
		model = append(model, tool)
		t.Logf("%-24s %4d tokens", tool.Name, n)
	}
	for _, name := range []string{"get_climate", "get_history", "create_alert", "list_alerts"} {
		if !slices.ContainsFunc(model, func(tool *sdk.Tool) bool { return tool.Name == name }) {
			t.Errorf("the served hub does not list %s to the model", name)
		}
	}
	total := toolTokens(t, model)
	t.Logf("tools/list: %d tools, %d tokens before the model (budget %d); %d app-only tools, %d tokens",
		len(model), total, budgetToolsList, len(app), toolTokens(t, app))
	if total > budgetToolsList {
		t.Errorf("tools/list on the served hub: %d tokens, over the budget of %d", total, budgetToolsList)
	}
}

// TestAppOnly: only a tool whose _meta.ui.visibility is exactly ["app"],
// as a client decodes it, is counted apart from the model's budget.
func TestAppOnly(t *testing.T) {
	for meta, want := range map[string]bool{
		`{"ui":{"visibility":["app"]}}`:         true,
		`{"ui":{"visibility":["model","app"]}}`: false,
		`{"ui":{"visibility":[]}}`:              false,
		`{"ui":{"resourceUri":"ui://climated/history"},"ui/resourceUri":"ui://climated/history"}`: false,
		`{}`: false,
	} {
		var tool sdk.Tool
		if err := json.Unmarshal([]byte(`{"name":"x","inputSchema":{"type":"object"},"_meta":`+meta+`}`), &tool); err != nil {
			t.Fatal(err)
		}
		if got := appOnly(&tool); got != want {
			t.Errorf("_meta %s: app-only %v, want %v", meta, got, want)
		}
	}
}
