package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// toolsNaming is what the tools say of the house's measurements: the
// keys get_climate's description lists and get_history's enum.
func toolsNaming(t *testing.T, cs *sdk.ClientSession) (desc string, enum []string) {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schema, _ := json.Marshal(findTool(t, tools.Tools, ToolGetHistory).InputSchema)
	var hist struct {
		Properties struct {
			Measurement struct{ Enum []string } `json:"measurement"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(schema, &hist); err != nil {
		t.Fatal(err)
	}
	return findTool(t, tools.Tools, ToolGetClimate).Description, hist.Properties.Measurement.Enum
}

// TestToolsNameWhatTheHouseMeasures: a house of room sensors is not told
// about wind, nor about noise or particles it has no sensor for; when a
// weather station's first reading comes, every session is sent
// notifications/tools/list_changed and the tools then name the wind, its
// unit and the keys derived from it.
func TestToolsNameWhatTheHouseMeasures(t *testing.T) {
	h := newTestHub(t) // Indoor: Temperature, CO2; Rain: Rain
	changed := make(chan struct{}, 8)
	cs := h.inMemory(t, &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
		changed <- struct{}{}
	}})
	desc, enum := toolsNaming(t, cs)
	if !slices.Equal(enum, []string{"CO2", "Rain", "Temperature"}) {
		t.Errorf("get_history takes %v; want the house's CO2, Rain, Temperature", enum)
	}
	for _, absent := range []string{"WindStrength", "Noise", "PM25", "feels_like", "max_wind_str"} {
		if strings.Contains(desc, absent) {
			t.Errorf("get_climate's description names %s, which the house does not measure:\n%s", absent, desc)
		}
	}
	for _, present := range []string{"- Temperature: °C", "- sum_rain_1, sum_rain_24:", "- min_temp, max_temp"} {
		if !strings.Contains(desc, present) {
			t.Errorf("get_climate's description lacks %q:\n%s", present, desc)
		}
	}

	now := time.Now()
	record(t, h, reading("Garden", sensors.WindStrength, 12, now), reading("Garden", sensors.GustStrength, 20, now),
		reading("Garden", sensors.WindAngle, 350, now), reading("Garden", sensors.Temperature, 8, now),
		reading("Garden", sensors.Humidity, 80, now))
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed within 10 s of the first wind reading")
	}
	// The notification may be one sent before (the channel keeps eight):
	// the list the client reads names the wind once the change is in.
	// (Under a loaded machine the first list read after a notification
	// was the old one.)
	testutil.Eventually(func() bool {
		_, enum = toolsNaming(t, cs)
		return slices.Contains(enum, "WindStrength")
	})
	desc, enum = toolsNaming(t, cs)
	for _, m := range []string{"WindStrength", "GustStrength", "WindAngle", "Humidity"} {
		if !slices.Contains(enum, m) {
			t.Errorf("after the station's reading, get_history takes %v, without %s", enum, m)
		}
	}
	for _, present := range []string{"- WindStrength, GustStrength: km/h", "- WindAngle: °", "- feels_like, dew_point", "- max_wind_str, max_wind_angle"} {
		if !strings.Contains(desc, present) {
			t.Errorf("after the station's reading, get_climate's description lacks %q:\n%s", present, desc)
		}
	}
	if strings.Contains(desc, "GustAngle") || strings.Contains(desc, "Lightning") {
		t.Errorf("the description names what the station did not send:\n%s", desc)
	}
}
