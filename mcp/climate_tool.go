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
// (sensors.Info.Brief), then the rules behind the derived values.
func climateDescription(zones []string, simulated bool) string {
	var b strings.Builder
	b.WriteString(`Current climate of the house from its zone sensors (climated home hub).

Structure: {"Zone": {"Key": value, ...}, ...}: one object per zone (a room, outdoors, the rain gauge); a key appears only where the zone has it.
`)
	if len(zones) > 0 {
		fmt.Fprintf(&b, "Zones in this house: %s.\n", strings.Join(zones, ", "))
	}
	b.WriteString("\nMeasurements:\n")
	for _, info := range sensors.Catalogue() {
		fmt.Fprintf(&b, "- %s: %s\n", info.Name, info.Brief)
	}
	b.WriteString(`Derived keys:
- min_temp, max_temp: lowest and highest Temperature since local midnight; date_min_temp, date_max_temp: when (Unix time).
- temp_trend: "up", "down" or "stable": least-squares change over the last hour ≥ +0.5 °C, ≤ -0.5 °C, or between.
- pressure_trend: Pressure change over 3 hours ≥ +1 hPa "up", ≤ -1 hPa "down", else "stable".
- sum_rain_1, sum_rain_24: mm of rain over the last hour and 24 hours.
- When: the zone's latest update (Unix time); long past means its sensor stopped reporting.

Values are numbers or trend words; times are Unix seconds (the hub's time zone is in the server instructions).`)
	if simulated {
		b.WriteString("\n\nThis hub runs its demo house: the values are SIMULATED, not measured. Say so when you report them.")
	}
	return b.String()
}

// noArgs is the (empty) argument object of get_climate. Its schema forbids
// unknown properties, so a model that invents arguments is told so.
type noArgs struct{}

func (s *Server) addClimateTool() {
	tool := &sdk.Tool{
		Name:         ToolGetClimate,
		Title:        "Current house climate",
		Description:  climateDescription(s.opts.Zones, s.opts.Simulated),
		OutputSchema: climateOutputSchema,
		Annotations: &sdk.ToolAnnotations{
			Title:          "Current house climate",
			ReadOnlyHint:   true,
			IdempotentHint: true,
			OpenWorldHint:  new(bool),
		},
		Meta: viewMeta(ViewHouseURI),
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
