package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/mcptest"
)

func TestGetClimateOverTransports(t *testing.T) {
	h := newTestHub(t)
	transports := map[string]func() sdk.Transport{
		"streamable": func() sdk.Transport { return &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp"} },
		"sse":        func() sdk.Transport { return &sdk.SSEClientTransport{Endpoint: h.http.URL + "/sse"} },
		"in-memory": func() sdk.Transport {
			st, ct := sdk.NewInMemoryTransports()
			if _, err := h.srv.MCP().Connect(context.Background(), st, nil); err != nil {
				t.Fatal(err)
			}
			return ct
		},
	}
	for name, tr := range transports {
		t.Run(name, func(t *testing.T) {
			cs := mcptest.Connect(t, tr())
			ctx := context.Background()
			if got := cs.InitializeResult().Instructions; !strings.Contains(got, "SIMULATED") {
				t.Errorf("instructions do not say the data is simulated: %q", got)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			tool := findTool(t, tools.Tools, ToolGetClimate)
			for _, want := range []string{"Zones: Indoor, Rain.", "sum_rain_24", "Unix", "°C", "hPa", `"stable"`, "SIMULATED"} {
				if !strings.Contains(tool.Description, want) {
					t.Errorf("description lacks %q", want)
				}
			}
			if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
				t.Error("get_climate is not annotated read-only")
			}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetClimate, Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatalf("tool error: %+v", res.Content)
			}
			var structured, text map[string]map[string]any
			raw, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(raw, &structured); err != nil {
				t.Fatalf("structured content %s: %v", raw, err)
			}
			if err := json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &text); err != nil {
				t.Fatal(err)
			}
			if structured["Indoor"]["Temperature"] != 21.7 || structured["Indoor"]["CO2"] != 612.0 || structured["Rain"]["sum_rain_1"] != 0.3 {
				t.Errorf("structured content = %v", structured)
			}
			if string(mustJSON(t, structured)) != string(mustJSON(t, text)) {
				t.Errorf("text and structured content differ:\n%v\n%v", text, structured)
			}
		})
	}
}

func findTool(t *testing.T, tools []*sdk.Tool, name string) *sdk.Tool {
	t.Helper()
	var names []string
	for _, tool := range tools {
		if tool.Name == name {
			return tool
		}
		names = append(names, tool.Name)
	}
	t.Fatalf("no tool %s among %v", name, names)
	return nil
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGetClimateRejectsArguments(t *testing.T) {
	h := newTestHub(t)
	cs := mcptest.Connect(t, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp"})
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetClimate, Arguments: map[string]any{"zone": 7}})
	if err == nil && !res.IsError {
		t.Fatal("an invented argument was accepted")
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	} else {
		msg = res.Content[0].(*sdk.TextContent).Text
	}
	if !strings.Contains(msg, "zone") {
		t.Errorf("error %q does not name the argument", msg)
	}
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_weather"}); err == nil || !strings.Contains(err.Error(), "get_weather") {
		t.Errorf("unknown tool: err = %v", err)
	}
	// The session still works.
	if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetClimate}); err != nil || res.IsError {
		t.Fatalf("after bad calls: %v %+v", err, res)
	}
}
