package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolGetClimate is the name of the tool of seed 000.
const ToolGetClimate = "get_climate"

// climateDescription tells the model the structure, as the seed's tool
// description does, with the units and the rules behind derived values.
func climateDescription(zones []string, simulated bool) string {
	var b strings.Builder
	b.WriteString(`Returns the current climate of the house from its zone sensors, as recorded by the climated home hub.

Structure: a JSON object; each top-level key is a zone (a room, an outdoor place, or a sensor module such as the rain gauge); its value is an object of measurements and status values for that zone:
{"Zone": {"Measurement1": value1, "Measurement2": value2, ...}, ...}
A key appears only where the zone has that measurement.
`)
	if len(zones) > 0 {
		fmt.Fprintf(&b, "\nZones in this house: %s.\n", strings.Join(zones, ", "))
	}
	b.WriteString(`
Keys and units:
- Temperature: current temperature, °C.
- min_temp, max_temp: lowest and highest temperature since local midnight, °C; date_min_temp, date_max_temp: when they were reached (Unix time).
- temp_trend: "up", "down" or "stable": the temperature change over the last hour (least-squares line through the readings) is at least +0.5 °C, at most -0.5 °C, or in between.
- Humidity: relative humidity, %.
- CO2: carbon dioxide, ppm (below 800 fresh, above 1400 stale air).
- Noise: sound level, dB.
- Pressure: pressure reduced to sea level, hPa (mbar); AbsolutePressure: pressure at the station, hPa.
- pressure_trend: "up", "down" or "stable": sea-level pressure change over the last 3 hours of at least +1 hPa, at most -1 hPa, or in between.
- Rain: rain in the latest reporting interval, mm; sum_rain_1, sum_rain_24: rain over the last hour and the last 24 hours, mm.
- battery_vp: battery voltage of a wireless module, mV; battery_percent: its battery level, %.
- rf_status: radio signal of a wireless module on the Netatmo scale, lower is better (90 low, 80 medium, 70 high, 60 full).
- wifi_status: Wi-Fi signal of the hub on the Netatmo scale, lower is better (86 bad, 71 average, 56 good).
- When: time of the zone's latest update (Unix time). A When long past means that zone's sensor has stopped reporting: its values are not current.

Values are numbers, or the trend words; all times are Unix timestamps in seconds.`)
	if simulated {
		b.WriteString("\n\nThis hub runs its demo house: the values are SIMULATED, not measured. Say so when you report them.")
	}
	return b.String()
}

// climateOutputSchema: zone → key → number or trend word.
var climateOutputSchema = &jsonschema.Schema{
	Type:        "object",
	Description: "zone name → measurement key → value",
	AdditionalProperties: &jsonschema.Schema{
		Type: "object",
		AdditionalProperties: &jsonschema.Schema{
			Types: []string{"number", "string"},
		},
	},
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
	}
	sdk.AddTool(s.mcp, tool, func(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, any, error) {
		data := s.hub.Snapshot().JSON
		// The JSON was made once for this state of the house; both forms
		// of the result share it.
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: string(data)}},
			StructuredContent: json.RawMessage(data),
		}, nil, nil
	})
}
