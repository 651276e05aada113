package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestPrompts(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
		for _, a := range p.Arguments {
			if a.Description == "" {
				t.Errorf("%s: argument %s has no description", p.Name, a.Name)
			}
		}
	}
	slices.Sort(names)
	if want := []string{"air_quality_report", "climate_report", "comfort_assessment", "rain_summary", "sensor_health", "ventilation_advice", "weather_report"}; !slices.Equal(names, want) {
		t.Errorf("prompts = %v", names)
	}

	cases := []struct {
		name      string
		args      map[string]string
		text      []string // in the instructions
		resources []string // URIs embedded
	}{
		{"climate_report", map[string]string{"zone": "Indoor", "period": "last_24h"},
			[]string{"the zone Indoor", "the last 24 hours", "SIMULATED", "time zone is"},
			[]string{"climate://zone/Indoor", "climate://daily/Indoor?from=24h&measurements=CO2%2CTemperature&to=now", "climate://history/Indoor/Temperature?from=24h&step=1h&to=now"}},
		{"climate_report", nil, []string{"the whole house", "since local midnight"}, []string{"climate://zone/Rain"}},
		{"comfort_assessment", nil, []string{"dew point", "40–60 %"}, []string{"climate://zone/Indoor"}},
		{"ventilation_advice", map[string]string{"zone": "Indoor"}, []string{"1400"}, []string{"climate://zones", "climate://history/Indoor/CO2?from=24h&step=1h"}},
		{"rain_summary", nil, []string{"the last 7 days"}, []string{"climate://daily/Rain?from=7d&to=now"}},
		{"sensor_health", nil, []string{"battery"}, []string{"climate://zones"}},
		{"air_quality_report", nil, []string{"There are no zones with air quality (PM25, PM10, VOCIndex, NOxIndex) yet: say so."}, nil},
		{"weather_report", map[string]string{"period": "last_24h"}, []string{"- Rain: rain 0.3 mm; no records broken."}, []string{"climate://zone/Rain"}},
	}
	for _, c := range cases {
		res, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Errorf("%s %v: %v", c.name, c.args, err)
			continue
		}
		text := res.Messages[0].Content.(*sdk.TextContent).Text
		for _, w := range c.text {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v: instructions lack %q: %s", c.name, c.args, w, text)
			}
		}
		var uris []string
		for _, m := range res.Messages[1:] {
			r := m.Content.(*sdk.EmbeddedResource).Resource
			if r.Text == "" || r.MIMEType != "application/json" {
				t.Errorf("%s: embedded %s is empty or not JSON", c.name, r.URI)
			}
			uris = append(uris, r.URI)
		}
		for _, w := range c.resources {
			if !slices.Contains(uris, w) {
				t.Errorf("%s %v: embeds %v, not %s", c.name, c.args, uris, w)
			}
		}
	}

	for _, c := range []struct {
		name string
		args map[string]string
		want string
	}{
		{"climate_report", map[string]string{"zone": "Attic"}, `zone "Attic": the zones are Indoor, Rain`},
		{"climate_report", map[string]string{"period": "fortnight"}, `period "fortnight": want one of today, yesterday, last_24h, last_7_days`},
		{"sensor_health", map[string]string{"zone": "Indoor"}, `prompt sensor_health has no argument "zone"`},
		{"weather_poem", nil, "weather_poem"},
		{"air_quality_report", map[string]string{"zone": "Indoor"}, `zone "Indoor": the zones with air quality (PM25, PM10, VOCIndex, NOxIndex) are none yet`},
	} {
		_, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: c.name, Arguments: c.args})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: error %v, want %q", c.name, c.args, err, c.want)
		}
	}
}

func TestCompletion(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)
	ctx := context.Background()
	cases := []struct {
		ref      *sdk.CompleteReference
		arg, val string
		context  map[string]string
		want     []string
	}{
		{&sdk.CompleteReference{Type: "ref/prompt", Name: "climate_report"}, "zone", "in", nil, []string{"Indoor"}},
		{&sdk.CompleteReference{Type: "ref/prompt", Name: "climate_report"}, "zone", "", nil, []string{"Indoor", "Rain"}},
		{&sdk.CompleteReference{Type: "ref/prompt", Name: "climate_report"}, "period", "last", nil, []string{"last_24h", "last_7_days", "last_30_days", "last_month"}},
		{&sdk.CompleteReference{Type: "ref/resource", URI: URIHistoryTemplate}, "measurement", "", map[string]string{"zone": "Indoor"}, []string{"CO2", "Temperature"}},
		{&sdk.CompleteReference{Type: "ref/resource", URI: URIHistoryTemplate}, "measurement", "", map[string]string{"zone": "Rain"}, []string{"Rain"}},
		{&sdk.CompleteReference{Type: "ref/resource", URI: URIHistoryTemplate}, "step", "1", nil, []string{"1m", "15m", "1h", "1d"}},
		{&sdk.CompleteReference{Type: "ref/resource", URI: URIDailyTemplate}, "from", "y", nil, []string{"yesterday"}},
		{&sdk.CompleteReference{Type: "ref/resource", URI: URIDailyTemplate}, "zone", "x", nil, []string{}},
		{&sdk.CompleteReference{Type: "ref/resource", URI: URIRecordsTemplate}, "since", "y", nil, []string{"yesterday"}},
		{&sdk.CompleteReference{Type: "ref/resource", URI: URIRecordsTemplate}, "zone", "", nil, []string{"Indoor", "Rain"}},
		{&sdk.CompleteReference{Type: "ref/prompt", Name: "weather_report"}, "zone", "", nil, []string{"Rain"}},
	}
	for _, c := range cases {
		params := &sdk.CompleteParams{Ref: c.ref, Argument: sdk.CompleteParamsArgument{Name: c.arg, Value: c.val}}
		if c.context != nil {
			params.Context = &sdk.CompleteContext{Arguments: c.context}
		}
		res, err := cs.Complete(ctx, params)
		if err != nil {
			t.Errorf("%s %q: %v", c.arg, c.val, err)
			continue
		}
		if !slices.Equal(res.Completion.Values, c.want) {
			t.Errorf("complete %s=%q (%v) = %v, want %v", c.arg, c.val, c.context, res.Completion.Values, c.want)
		}
	}
}

func TestWriteReport(t *testing.T) {
	h := newTestHub(t)
	ctx := context.Background()
	var asked string
	withSampling := h.inMemory(t, &sdk.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			asked = req.Params.Messages[0].Content.(*sdk.TextContent).Text
			return &sdk.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &sdk.TextContent{Text: "It is 21.7 °C indoors."}}, nil
		},
	})
	res, err := withSampling.CallTool(ctx, &sdk.CallToolParams{Name: ToolWriteReport, Arguments: map[string]any{"zone": "Indoor"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res.Content[0])
	}
	if got := res.Content[0].(*sdk.TextContent).Text; got != "It is 21.7 °C indoors." {
		t.Errorf("report = %q", got)
	}
	if !strings.Contains(asked, "climate report for the zone Indoor") || !strings.Contains(asked, `"Temperature":21.7`) {
		t.Errorf("the model was asked: %s", asked)
	}

	without := h.inMemory(t, nil)
	res, err = without.CallTool(ctx, &sdk.CallToolParams{Name: ToolWriteReport, Arguments: map[string]any{"kind": "sensor_health"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	if got := res.Content[0].(*sdk.TextContent).Text; !strings.Contains(got, "offers no sampling") || !strings.Contains(got, "climate://zones") {
		t.Errorf("without sampling: %s", got)
	}
	res, err = without.CallTool(ctx, &sdk.CallToolParams{Name: ToolWriteReport, Arguments: map[string]any{"kind": "sensor_health", "period": "today"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "sensor_health takes no period argument") {
		t.Errorf("a period for sensor_health: %v %+v", err, res)
	}
}
