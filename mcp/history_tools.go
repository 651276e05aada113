package mcp

import (
	"context"
	"encoding/json"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names beside get_climate, for clients that use tools only.
const (
	ToolGetHistory    = "get_history"
	ToolDescribeZones = "describe_zones"
)

// jsonToolResult returns v as both structured content and JSON text.
func jsonToolResult(v any) (*sdk.CallToolResult, any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: string(data)}},
		StructuredContent: json.RawMessage(data),
	}, nil, nil
}

// readOnly annotates a tool that changes nothing. The annotations carry no
// title: the tool's own title is the one hosts show first, and a second
// copy is only more for the model to read.
func readOnly() *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
}

type describeArgs struct{}

func (s *Server) addHistoryTools() {
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:  ToolGetHistory,
		Title: "Measurement history",
		Description: "One zone's measurement over time (default: the last 24 h): a summary, then points [t, mean, min, max] " +
			"per step (Rain: [t, sum]; angles: [t, mean]), t in Unix seconds.",
		InputSchema:  historyInputSchema(s.measuredNames()),
		OutputSchema: historyOutputSchema,
		Annotations:  readOnly(),
		Meta:         viewMeta(ViewHistoryURI),
	}, func(ctx context.Context, _ *sdk.CallToolRequest, a historyArgs) (*sdk.CallToolResult, any, error) {
		return s.historyResult(ctx, a)
	})
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:  ToolDescribeZones,
		Title: "Zones and sensors",
		Description: "Every zone: sources, last_error, last reading's when, local_time, stale (silent " +
			humanDuration(s.opts.StaleAfter) + " or source offline), measurements (unit, description, source, latest value).",
		OutputSchema: zonesOutputSchema,
		Annotations:  readOnly(),
	}, func(ctx context.Context, _ *sdk.CallToolRequest, _ describeArgs) (*sdk.CallToolResult, any, error) {
		return jsonToolResult(map[string]any{"zones": s.describe()})
	})
}

// zoneView is a zone as describe_zones shows it.
type zoneView struct {
	Name         string                    `json:"name"`
	Stale        bool                      `json:"stale"`
	LastError    string                    `json:"last_error,omitempty"`
	When         int64                     `json:"when"`
	LocalTime    string                    `json:"local_time"`
	Sources      []string                  `json:"sources"`
	Measurements []climate.MeasurementInfo `json:"measurements"`
}

func (s *Server) describe() []zoneView {
	health := sensors.HealthByZone(s.hub.Statuses())
	var out []zoneView
	for _, z := range s.hub.Describe() {
		h := health[z.Name]
		out = append(out, zoneView{
			Name: z.Name, Stale: climate.Stale(z.When, h.Offline, s.opts.Now(), s.opts.StaleAfter), LastError: h.Fault,
			When: z.When, LocalTime: s.localTime(z.When), Sources: nonNil(z.Sources), Measurements: nonNil(z.Measurements),
		})
	}
	return out
}

// nonNil keeps an empty list a list in JSON (the output schema says array).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
