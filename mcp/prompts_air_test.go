package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors/demo"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// dayOfDemo is a hub with the last day of the demo house's history at
// one reading a minute, as the hub fills it in when it starts.
func dayOfDemo(t *testing.T) *testHub {
	t.Helper()
	ctx := context.Background()
	store, err := hub.Open(ctx, filepath.Join(t.TempDir(), "h.db"), &history.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	house := demo.New(&demo.Options{Location: time.UTC})
	now := time.Now()
	if err := house.Backfill(ctx, store, now.Add(-24*time.Hour), now); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &Options{Zones: house.Zones(), Simulated: true, Location: time.UTC, Version: "test"})
	h := &testHub{store: store, srv: srv}
	t.Cleanup(func() {
		srv.Close()
		store.Close(context.Background())
	})
	return h
}

// promptText returns a prompt's instructions and its embedded resources by
// URI.
func promptText(t *testing.T, cs *sdk.ClientSession, name string, args map[string]string) (string, map[string]string) {
	t.Helper()
	res, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	text := res.Messages[0].Content.(*sdk.TextContent).Text
	embedded := map[string]string{}
	for _, m := range res.Messages[1:] {
		r := m.Content.(*sdk.EmbeddedResource).Resource
		embedded[r.URI] = r.Text
	}
	return text, embedded
}

// TestAirQualityPrompt asks for the air-quality report of a day of the demo
// house through a client: it is about the zone with an air-quality sensor,
// names the WHO 2021 guideline, the indices' meaning and the tools to call,
// and embeds the day's particle and VOC data.
func TestAirQualityPrompt(t *testing.T) {
	h := dayOfDemo(t)
	cs := h.inMemory(t, nil)
	text, embedded := promptText(t, cs, "air_quality_report", nil)
	for _, w := range []string{
		"the whole house", "the last 24 hours", "SIMULATED", "time zone is",
		"15 µg/m³ for PM2.5 as a 24-hour mean", "5 µg/m³ as an annual mean", "45 µg/m³ for PM10",
		"100 is the room's own average of the last 24 hours", "above 250 ventilate", "1 is the room's usual air", "combustion",
		"get_climate (keys PM25, PM10, VOCIndex, NOxIndex", "get_history", "from=24h",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("instructions lack %q: %s", w, text)
		}
	}
	want := []string{
		"climate://zone/Indoor",
		"climate://daily/Indoor?from=24h&measurements=PM25%2CPM10%2CVOCIndex%2CNOxIndex&to=now",
		"climate://history/Indoor/PM25?from=24h&step=1h&to=now",
		"climate://history/Indoor/VOCIndex?from=24h&step=1h&to=now",
	}
	if got := slices.Sorted(maps.Keys(embedded)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("embeds %v, want %v (only the zone with air quality)", got, want)
	}
	for _, k := range []string{"PM1", "PM25", "PM4", "PM10", "VOCIndex", "NOxIndex"} {
		if !strings.Contains(embedded["climate://zone/Indoor"], `"`+k+`"`) {
			t.Errorf("the Indoor zone lacks %s: %s", k, embedded["climate://zone/Indoor"])
		}
	}
	// The day had a dinner: the hourly PM2.5 curve's highest point is a
	// cooking peak, far above the WHO guideline.
	var curve struct {
		Summary struct{ Max float64 } `json:"summary"`
	}
	if err := json.Unmarshal([]byte(embedded[want[2]]), &curve); err != nil || curve.Summary.Max < 60 {
		t.Errorf("PM2.5 curve: max %v (%v): %s", curve.Summary.Max, err, embedded[want[2]])
	}

	text, embedded = promptText(t, cs, "air_quality_report", map[string]string{"zone": "Indoor", "period": "last_7_days"})
	if !strings.Contains(text, "the zone Indoor") || !strings.Contains(text, "the last 7 days") || len(embedded) != 2 {
		t.Errorf("Indoor over 7 days: %s\nembeds %v", text, slices.Sorted(maps.Keys(embedded)))
	}
	// write_climate_report offers the same report (this client has no
	// sampling, so it returns the instructions and the data).
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: ToolWriteReport,
		Arguments: map[string]any{"kind": "air_quality_report", "zone": "Indoor"}})
	if err != nil || res.IsError {
		t.Fatalf("write_climate_report: %v %+v", err, res)
	}
	if got := res.Content[0].(*sdk.TextContent).Text; !strings.Contains(got, "WHO 2021") || !strings.Contains(got, want[2]) {
		t.Errorf("write_climate_report air_quality_report: %s", got)
	}
	_, err = cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: "air_quality_report", Arguments: map[string]string{"zone": "Bedroom"}})
	if err == nil || !strings.Contains(err.Error(), `zone "Bedroom": the zones with air quality (PM25, PM10, VOCIndex, NOxIndex) are Indoor`) {
		t.Errorf("Bedroom: %v", err)
	}
}

// TestAirQualityInOtherPrompts checks that comfort and ventilation advice
// read air quality where a zone measures it.
func TestAirQualityInOtherPrompts(t *testing.T) {
	h := dayOfDemo(t)
	cs := h.inMemory(t, nil)
	text, _ := promptText(t, cs, "comfort_assessment", map[string]string{"zone": "Indoor"})
	for _, w := range []string{"air quality", "15 µg/m³ for PM2.5 as a 24-hour mean", "VOCIndex"} {
		if !strings.Contains(text, w) {
			t.Errorf("comfort_assessment lacks %q: %s", w, text)
		}
	}
	text, embedded := promptText(t, cs, "ventilation_advice", nil)
	if !strings.Contains(text, "VOC index is above 250") || !strings.Contains(text, "outdoor PM2.5 is higher than indoors") {
		t.Errorf("ventilation_advice: %s", text)
	}
	for _, uri := range []string{"climate://history/Indoor/CO2?from=24h&step=1h", "climate://history/Indoor/VOCIndex?from=24h&step=1h", "climate://history/Bedroom/CO2?from=24h&step=1h"} {
		if _, ok := embedded[uri]; !ok {
			t.Errorf("ventilation_advice embeds %v, not %s", slices.Sorted(maps.Keys(embedded)), uri)
		}
	}
}

// TestAirQualityCompletion checks that the zone argument of the
// air-quality report completes to the zones with air quality only, while
// the other prompts complete to every zone.
func TestAirQualityCompletion(t *testing.T) {
	h := dayOfDemo(t)
	cs := h.inMemory(t, nil)
	for _, c := range []struct {
		prompt, arg, val string
		want             []string
	}{
		{"air_quality_report", "zone", "", []string{"Indoor"}},
		{"air_quality_report", "zone", "b", []string{}},
		{"air_quality_report", "period", "l", []string{"last_24h", "last_7_days", "last_30_days", "last_month"}},
		{"climate_report", "zone", "b", []string{"Balcony", "Bedroom"}},
	} {
		res, err := cs.Complete(context.Background(), &sdk.CompleteParams{
			Ref:      &sdk.CompleteReference{Type: "ref/prompt", Name: c.prompt},
			Argument: sdk.CompleteParamsArgument{Name: c.arg, Value: c.val},
		})
		if err != nil {
			t.Errorf("%s %s=%q: %v", c.prompt, c.arg, c.val, err)
			continue
		}
		if !slices.Equal(res.Completion.Values, c.want) {
			t.Errorf("%s %s=%q: %v, want %v", c.prompt, c.arg, c.val, res.Completion.Values, c.want)
		}
	}
}
