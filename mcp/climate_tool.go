package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolGetClimate is the name of the tool of seed 000.
const ToolGetClimate = "get_climate"

// climateDescription tells the model the structure, as the seed's tool
// description does: every measurement of the catalogue with its unit
// (sensors.Info.Brief), then the rules behind the derived values, in as
// few words as carry them: tools/list is read on every conversation.
func climateDescription(zones []string, simulated bool) string {
	var b strings.Builder
	b.WriteString(`Current climate: {"Zone": {"Key": value}}, only the keys a zone has.
`)
	if len(zones) > 0 {
		fmt.Fprintf(&b, "Zones: %s.\n", strings.Join(zones, ", "))
	}
	b.WriteString("Keys:\n")
	for _, info := range sensors.Catalogue() {
		fmt.Fprintf(&b, "- %s: %s\n", info.Name, info.Brief)
	}
	b.WriteString(`- min_temp, max_temp (at date_min_temp, date_max_temp): since midnight.
- temp_trend, pressure_trend: "up", "down" or "stable" (±0.5 °C per hour, ±1 hPa per 3 h).
- sum_rain_1, sum_rain_24: mm over the last 1 and 24 h.
- When: the zone's latest reading; long past: its sensor stopped.
Times: Unix seconds.`)
	if simulated {
		b.WriteString("\nSIMULATED demo values, not measured: say so.")
	}
	return b.String()
}

// noArgs is the (empty) argument object of get_climate. Its schema forbids
// unknown properties, so a model that invents arguments is told so.
type noArgs struct{}

func (s *Server) addClimateTool() {
	tool := &sdk.Tool{
		Name:         ToolGetClimate,
		Title:        "House climate",
		Description:  climateDescription(s.opts.Zones, s.opts.Simulated),
		OutputSchema: climateOutputSchema,
		Annotations:  readOnly(),
		Meta:         viewMeta(ViewHouseURI),
	}
	sdk.AddTool(s.mcp, tool, func(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, any, error) {
		snap := s.hub.Snapshot()
		data := snap.JSON
		// The JSON was made once for this state of the house; both forms
		// of the result share it. The local times follow it.
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: string(data)}, &sdk.TextContent{Text: s.climateTimes(snap.Climate)}},
			StructuredContent: json.RawMessage(data),
			Meta:              sdk.Meta{metaHouse: s.houseMetaJSON(ctx)},
		}, nil, nil
	})
}
