package mcp

import (
	"context"
	"encoding/json"

	"github.com/climated/climated/history"
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

func readOnly(title string) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
}

type describeArgs struct{}

func (s *Server) addHistoryTools() {
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:  ToolGetHistory,
		Title: "History of a measurement",
		Description: "Recorded history of one measurement of one zone over a time range, compact enough for a conversation: " +
			"first a summary (count, min and max with their Unix times, mean; for Rain also the total in mm), then points as " +
			"[t, mean, min, max] per step (Rain: [t, sum]), t in Unix seconds. from/to accept now, 24h, 7d, today, yesterday, " +
			"2026-11-30 or RFC 3339 (default: the last 24 hours). At most max_points points (default 500): a finer step is " +
			"coarsened and the note says so. Use describe_zones for the zones and measurements there are.",
		Annotations: readOnly("History of a measurement"),
	}, func(ctx context.Context, _ *sdk.CallToolRequest, a historyArgs) (*sdk.CallToolResult, any, error) {
		res, err := s.history(ctx, a)
		if err != nil {
			return nil, nil, err
		}
		return jsonToolResult(res)
	})
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:  ToolDescribeZones,
		Title: "Zones and sensors",
		Description: "Every zone of the house with its measurements (unit, description, the source that provides it, " +
			"latest value and its Unix time) and whether the zone is stale (no reading for " + s.opts.StaleAfter.String() + ").",
		Annotations: readOnly("Zones and sensors"),
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
	Sources      []string                  `json:"sources"`
	Measurements []history.MeasurementInfo `json:"measurements"`
}

func (s *Server) describe() []zoneView {
	errs := map[string]string{}
	for _, st := range s.hub.Statuses() {
		if st.Err != nil {
			for _, z := range st.Zones {
				errs[z] = st.Source + ": " + st.Err.Error()
			}
		}
	}
	var out []zoneView
	for _, z := range s.hub.Describe() {
		out = append(out, zoneView{
			Name: z.Name, Stale: s.silent(z) > s.opts.StaleAfter, LastError: errs[z.Name],
			When: z.When, Sources: z.Sources, Measurements: z.Measurements,
		})
	}
	return out
}
