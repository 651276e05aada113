package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/mcptest"
)

// modelSubset is what a tool schema may use and still be accepted by model
// providers for tool parameters and structured output: OpenAI's strict
// mode and Gemini's response schemas share these keywords (neither takes
// a type array; Gemini's older responseSchema rejects them outright, and
// neither resolves $ref or oneOf/allOf everywhere).
var modelSubset = map[string]bool{
	"type": true, "properties": true, "required": true, "items": true, "enum": true, "anyOf": true,
	"description": true, "title": true, "minimum": true, "maximum": true, "additionalProperties": true,
}

// fitsModelSubset reports the first place where schema leaves the subset.
func fitsModelSubset(path string, schema any) error {
	switch v := schema.(type) {
	case map[string]any:
		for k, sub := range v {
			if !modelSubset[k] {
				return fmt.Errorf("%s: keyword %q", path, k)
			}
			switch k {
			case "type":
				if _, ok := sub.(string); !ok {
					return fmt.Errorf("%s: type %v is not one type", path, sub)
				}
			case "properties":
				for name, p := range sub.(map[string]any) {
					if err := fitsModelSubset(path+"."+name, p); err != nil {
						return err
					}
				}
			case "items", "additionalProperties":
				if err := fitsModelSubset(path+"/"+k, sub); err != nil {
					return err
				}
			case "anyOf":
				for i, a := range sub.([]any) {
					if err := fitsModelSubset(fmt.Sprintf("%s/anyOf[%d]", path, i), a); err != nil {
						return err
					}
				}
			}
		}
	case bool: // additionalProperties: false
	default:
		return fmt.Errorf("%s: schema %T", path, schema)
	}
	return nil
}

// TestWhatTheModelReads: every tool that returns structured content
// declares its output schema; closed sets are enums and max_points has
// bounds; every schema fits the model providers' subset; the hub's time
// zone is named in the instructions, every prompt and the report, with
// local ISO 8601 times beside the Unix seconds; durations in words.
func TestWhatTheModelReads(t *testing.T) {
	h := newTestHub(t)
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), h.store, &Options{Zones: []string{"Indoor", "Rain"}, Location: loc})
	t.Cleanup(srv.Close)
	st, ct := sdk.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs := mcptest.Connect(t, ct)
	ctx := context.Background()

	if got := cs.InitializeResult().Instructions; !strings.Contains(got, "Europe/Berlin") {
		t.Errorf("instructions do not name the time zone: %q", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]map[string]any{
		ToolGetClimate: {}, ToolDescribeZones: {},
		ToolGetHistory: {"zone": "Indoor", "measurement": "Temperature"},
	}
	for _, tool := range tools.Tools {
		for what, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			if schema == nil {
				continue
			}
			raw, _ := json.Marshal(schema)
			var generic any
			json.Unmarshal(raw, &generic)
			if err := fitsModelSubset(tool.Name+" "+what, generic); err != nil {
				t.Errorf("schema outside the model providers' subset: %v\n%s", err, raw)
			}
		}
		if args, ok := calls[tool.Name]; ok {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool.Name, Arguments: args})
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %+v", tool.Name, err, res)
			}
			if res.StructuredContent != nil && tool.OutputSchema == nil {
				t.Errorf("%s returns structured content without an output schema", tool.Name)
			}
		}
	}
	schemaOf := func(tool, prop string) map[string]any {
		for _, tl := range tools.Tools {
			if tl.Name == tool {
				raw, _ := json.Marshal(tl.InputSchema)
				var s struct {
					Properties map[string]map[string]any `json:"properties"`
				}
				json.Unmarshal(raw, &s)
				return s.Properties[prop]
			}
		}
		return nil
	}
	for _, c := range []struct{ tool, prop string }{{ToolWriteReport, "kind"}, {ToolWriteReport, "period"}, {ToolGetHistory, "measurement"}} {
		if schemaOf(c.tool, c.prop)["enum"] == nil {
			t.Errorf("%s.%s: a closed set without an enum", c.tool, c.prop)
		}
	}
	if mp := schemaOf(ToolGetHistory, "max_points"); mp["minimum"] == nil || mp["maximum"] == nil {
		t.Errorf("max_points has no bounds: %v", mp)
	}

	// Times: local ISO 8601 beside the Unix seconds.
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetClimate, Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		text.WriteString(c.(*sdk.TextContent).Text)
	}
	if !strings.Contains(text.String(), "Europe/Berlin") || !regexp.MustCompile(`Indoor: When \d\d:\d\d`).MatchString(text.String()) {
		t.Errorf("get_climate gives no local times: %s", text.String())
	}
	for _, p := range promptSpecs {
		got, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: p.name})
		if err != nil {
			t.Fatal(err)
		}
		first := got.Messages[0].Content.(*sdk.TextContent).Text
		if !strings.Contains(first, "Europe/Berlin") || !regexp.MustCompile(`now \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00`).MatchString(first) {
			t.Errorf("prompt %s does not name the time zone and local time: %s", p.name, first)
		}
		if strings.Contains(first, "over since") {
			t.Errorf("prompt %s: %q", p.name, first)
		}
	}
	report, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolWriteReport, Arguments: map[string]any{}})
	if err != nil || !strings.Contains(report.Content[0].(*sdk.TextContent).Text, "Europe/Berlin") {
		t.Errorf("the report does not name the time zone: %v %+v", err, report)
	}
	for _, tl := range tools.Tools {
		if regexp.MustCompile(`\d+m0s`).MatchString(tl.Description) {
			t.Errorf("%s: a Go duration where words belong: %s", tl.Name, tl.Description)
		}
	}
}
