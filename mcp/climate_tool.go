package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/sensors"
)

// ToolGetClimate is the name of the tool assistants call for the climate.
const ToolGetClimate = "get_climate"

// climateDescription tells the model the structure, as the seed's tool
// description does: each measurement the house has with its unit
// (sensors.Info.Brief; entries of one brief share a line), then the rules
// behind the keys derived from them, in as few words as carry them:
// tools/list is read on every conversation.
func climateDescription(zones []string, measures []sensors.Measurement, simulated bool) string {
	var b strings.Builder
	b.WriteString(`Current climate: {"Zone": {"Key": value}}, only the keys a zone has.
`)
	if len(zones) > 0 {
		fmt.Fprintf(&b, "Zones: %s.\n", strings.Join(zones, ", "))
	}
	b.WriteString("Keys:\n")
	var names []string
	for i, m := range measures {
		info, _ := sensors.Lookup(m)
		names = append(names, string(m))
		if next, ok := at(measures, i+1); ok && next.Brief == info.Brief {
			continue
		}
		fmt.Fprintf(&b, "- %s: %s\n", strings.Join(names, ", "), info.Brief)
		names = names[:0]
	}
	for _, d := range derivedLines {
		if slices.ContainsFunc(d.after, func(m sensors.Measurement) bool { return slices.Contains(measures, m) }) {
			b.WriteString(d.text + "\n")
		}
	}
	b.WriteString(`- When: the zone's latest reading; long past: its sensor stopped.
Times: Unix seconds.`)
	if simulated {
		b.WriteString("\nSIMULATED demo values, not measured: say so.")
	}
	return b.String()
}

// at is the catalogue entry of ms[i], if there is one.
func at(ms []sensors.Measurement, i int) (sensors.Info, bool) {
	if i >= len(ms) {
		return sensors.Info{}, false
	}
	return sensors.Lookup(ms[i])
}

// derivedLines say what the derived keys are, each said when the house
// has a measurement it comes after.
var derivedLines = []struct {
	after []sensors.Measurement
	text  string
}{
	{[]sensors.Measurement{sensors.Temperature}, "- min_temp, max_temp (at date_min_temp, date_max_temp): since midnight."},
	{[]sensors.Measurement{sensors.Temperature, sensors.Pressure}, `- temp_trend, pressure_trend: "up", "down" or "stable" (±0.5 °C per hour, ±1 hPa per 3 h).`},
	{[]sensors.Measurement{sensors.Rain}, "- sum_rain_1, sum_rain_24: mm over the last 1 and 24 h."},
	{[]sensors.Measurement{sensors.GustStrength}, "- max_wind_str, max_wind_angle (at date_max_wind_str): strongest gust since midnight."},
	{[]sensors.Measurement{sensors.WindStrength}, "- feels_like, dew_point; heat_index, wind_chill, humidex where they apply: °C, where there is wind."},
	{[]sensors.Measurement{sensors.Lightning}, "- sum_lightning_1, sum_lightning_24: strikes over the last 1 and 24 h."},
}

// noArgs is the (empty) argument object of get_climate. Its schema forbids
// unknown properties, so a model that invents arguments is told so.
type noArgs struct{}

func (s *Server) addClimateTool() {
	tool := &sdk.Tool{
		Name:         ToolGetClimate,
		Title:        "House climate",
		Description:  climateDescription(s.opts.Zones, s.measured(), s.simulated()),
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

// Resimulate gives get_climate the description of the data as it stands
// (Options.SimulatedNow), once a reload started or stopped the demo house:
// the clients are told that the list of tools changed.
func (s *Server) Resimulate() { s.addClimateTool() }
