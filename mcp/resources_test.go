package mcp

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func readJSON(t *testing.T, cs *sdk.ClientSession, uri string) map[string]any {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &v); err != nil {
		t.Fatalf("read %s: %q: %v", uri, res.Contents[0].Text, err)
	}
	return v
}

func TestResourcesListed(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)
	ctx := context.Background()
	res, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	slices.Sort(uris)
	if want := []string{"climate://zone/Indoor", "climate://zone/Rain", "climate://zones", ViewHistoryURI, ViewHouseURI}; !slices.Equal(uris, want) {
		t.Errorf("resources = %v, want %v", uris, want)
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var templates []string
	for _, r := range tmpl.ResourceTemplates {
		templates = append(templates, r.URITemplate)
	}
	for _, want := range []string{URIZoneTemplate, URIHistoryTemplate, URIDailyTemplate, URIRecordsTemplate} {
		if !slices.Contains(templates, want) {
			t.Errorf("templates %v lack %s", templates, want)
		}
	}
}

func TestReadResources(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)

	zones := readJSON(t, cs, URIZones)["zones"].([]any)
	if len(zones) != 2 || zones[0].(map[string]any)["name"] != "Indoor" {
		t.Errorf("zones = %v", zones)
	}
	indoor := readJSON(t, cs, ZoneURI("Indoor"))["Indoor"].(map[string]any)
	if indoor["Temperature"] != 21.7 || indoor["CO2"] != 612.0 {
		t.Errorf("zone Indoor = %v", indoor)
	}
	hist := readJSON(t, cs, HistoryURI("Indoor", sensors.Temperature, url.Values{"from": {"1h"}, "step": {"1m"}}))
	sum := hist["summary"].(map[string]any)
	if sum["count"] != 2.0 || sum["min"] != 21.5 || sum["max"] != 21.7 || hist["unit"] != "°C" {
		t.Errorf("history = %v", hist)
	}
	// An RFC 3339 bound, percent-encoded as a URI template expansion does it.
	from := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	hist = readJSON(t, cs, "climate://history/Indoor/Temperature?from="+url.QueryEscape(from))
	if hist["summary"].(map[string]any)["count"] != 2.0 {
		t.Errorf("history from %s = %v", from, hist)
	}
	daily := readJSON(t, cs, DailyURI("Rain", url.Values{"from": {"2d"}}))
	days := daily["days"].([]any)
	if len(days) == 0 {
		t.Fatalf("daily = %v", daily)
	}
	last := days[len(days)-1].(map[string]any)["measurements"].(map[string]any)["Rain"].(map[string]any)
	if last["sum"] != 0.3 {
		t.Errorf("daily rain = %v", last)
	}
}

func TestReadResourceErrors(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)
	cases := []struct{ uri, want string }{
		{"climate://zone/Attic", "Resource not found"},
		{"climate://weather/today", "Resource not found"},
		{"climate://history/Attic/Temperature", `unknown zone "Attic"; the zones are Indoor, Rain`},
		{"climate://history/Indoor/Radon", `zone Indoor has no measurement "Radon"; it has CO2, Temperature`},
		{"climate://history/Indoor/Temperature?from=soon", `from: time "soon"`},
		{"climate://history/Indoor/Temperature?from=1h&to=2h", "from 1h is not before to 2h"},
		{"climate://history/Indoor/Temperature?from=1900-01-01", "outside 2000-01-01"},
		{"climate://history/Indoor/Temperature?to=3000-01-01", "outside 2000-01-01"},
		{"climate://history/Indoor/Temperature?step=0s", `step "0s": want a duration of at least 1s`},
		{"climate://history/Indoor/Temperature?step=-5m", `step "-5m"`},
		{"climate://history/Indoor/Temperature?colour=red", `unknown parameter "colour"`},
		{"climate://daily/Indoor?from=800d", "at most 31 days"},
		{"climate://daily/Indoor?from=32d", "climate://months/Indoor?year="},
		{"climate://months/Indoor?year=12", "want a year"},
		{"climate://months/Indoor?from=7d", "not from"},
		{"climate://daily/Indoor?step=1h", "not step"},
	}
	for _, c := range cases {
		_, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: c.uri})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("read %s: error %v, want %q", c.uri, err, c.want)
		}
	}
	// The session is still fine.
	readJSON(t, cs, URIZones)
}

func TestHistoryTools(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetHistory, Arguments: map[string]any{"zone": "Indoor", "measurement": "Temperature", "from": "2h"}})
	if err != nil || res.IsError {
		t.Fatalf("get_history: %v %+v", err, res)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !strings.HasPrefix(text, `{"zone":"Indoor"`) || strings.Index(text, `"summary"`) > strings.Index(text, `"points"`) {
		t.Errorf("get_history text should put the summary before the points: %s", text)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"zone": "Attic", "measurement": "Temperature"}, "the zones are Indoor, Rain"},
		{map[string]any{"zone": "Indoor", "measurement": "Temperature", "from": "yesterday-ish"}, `from: time "yesterday-ish"`},
		{map[string]any{"zone": "Indoor", "measurement": "Temperature", "max_points": -3}, "max_points"},
		{map[string]any{"zone": "Indoor", "measurement": "Temperature", "max_points": 5000}, "max_points"},
		{map[string]any{"zone": "Indoor", "measurement": "Warmth"}, "measurement"},
		{map[string]any{"zone": "Indoor"}, "measurement"},
		{map[string]any{"zone": 7, "measurement": "Temperature"}, "zone"},
	} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetHistory, Arguments: c.args})
		msg := ""
		switch {
		case err != nil:
			// A model sees tool errors, not protocol errors.
			t.Errorf("%v: a protocol error instead of a tool error: %v", c.args, err)
			continue
		case res.IsError:
			msg = res.Content[0].(*sdk.TextContent).Text
		default:
			t.Errorf("%v: no error", c.args)
			continue
		}
		if !strings.Contains(msg, c.want) {
			t.Errorf("%v: error %q, want %q", c.args, msg, c.want)
		}
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolDescribeZones})
	if err != nil || res.IsError {
		t.Fatalf("describe_zones: %v %+v", err, res)
	}
	var d struct {
		Zones []zoneView `json:"zones"`
	}
	json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &d)
	if len(d.Zones) != 2 || d.Zones[0].Name != "Indoor" || d.Zones[0].Stale || len(d.Zones[0].Measurements) != 2 || d.Zones[0].Measurements[1].Unit != "°C" {
		t.Errorf("describe_zones = %+v", d)
	}
}
