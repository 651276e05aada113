package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// resolvedSchema is a tool's output schema as a client receives it, ready
// to validate with.
func resolvedSchema(t *testing.T, tool *sdk.Tool) *jsonschema.Resolved {
	t.Helper()
	raw, err := json.Marshal(tool.OutputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: output schema %s: %v", tool.Name, raw, err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: output schema %s: %v", tool.Name, raw, err)
	}
	return r
}

// TestOutputSchemasHoldServed: on the served hub, the structured content
// of every tool that declares an output schema validates against it. The
// tools return their structured content ready-made, which the go-sdk does
// not validate (it validates only a handler's typed output), so this test
// is what holds the schemas and the answers together. Each schema also
// refuses an answer without its keys, so that it says something.
func TestOutputSchemasHoldServed(t *testing.T) {
	cs := servedSession(t)
	calls := map[string]map[string]any{
		"get_climate":    {},
		"get_history":    {"zone": "Indoor", "measurement": "Temperature"},
		"describe_zones": {},
		"create_alert":   {"zone": "Bedroom", "measurement": "CO2", "kind": "above", "threshold": 1200, "for": "15m"},
		"list_alerts":    {},
	}
	// Answers every schema must refuse: without the keys, or not objects.
	wrong := map[string]any{"get_climate": map[string]any{"Indoor": 21.5}}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.OutputSchema == nil {
			continue
		}
		args, ok := calls[tool.Name]
		if !ok {
			t.Errorf("%s declares an output schema this test does not check: add a call", tool.Name)
			continue
		}
		schema := resolvedSchema(t, tool)
		r, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool.Name, Arguments: args})
		if err != nil || r.IsError || r.StructuredContent == nil {
			t.Errorf("%s: %v %+v", tool.Name, err, r)
			continue
		}
		if err := schema.Validate(r.StructuredContent); err != nil {
			raw, _ := json.Marshal(r.StructuredContent)
			t.Errorf("%s: the answer does not fit its output schema: %v\n%.300s", tool.Name, err, raw)
		}
		bad, ok := wrong[tool.Name]
		if !ok {
			bad = map[string]any{}
		}
		if err := schema.Validate(bad); err == nil {
			t.Errorf("%s: its output schema takes %v", tool.Name, bad)
		}
	}
}
