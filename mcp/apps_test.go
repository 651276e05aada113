package mcp

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// Limits of a view's document: what a host fetches for every answer
// that shows it.
const (
	viewMaxBytes   = 80 << 10
	viewMaxGzipped = 30 << 10
)

// TestAppsViewSize: each view is one document within its size, with no
// URL in it (a view loads nothing from anywhere: the host's default CSP
// forbids it) and no early end of its inline scripts.
func TestAppsViewSize(t *testing.T) {
	// A URL with a scheme, or an attribute or rule that would load one.
	url := regexp.MustCompile(`(?i)https?:|\b(src|href|srcset|action)\s*=|url\(|@import`)
	for uri, doc := range views() {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		io.WriteString(zw, doc)
		zw.Close()
		t.Logf("%s: %d bytes, %d gzipped", uri, len(doc), gz.Len())
		if len(doc) > viewMaxBytes || gz.Len() > viewMaxGzipped {
			t.Errorf("%s: %d bytes (%d gzipped), over %d (%d)", uri, len(doc), gz.Len(), viewMaxBytes, viewMaxGzipped)
		}
		if loc := url.FindStringIndex(doc); loc != nil {
			t.Errorf("%s loads from elsewhere: %q", uri, doc[max(0, loc[0]-40):min(len(doc), loc[1]+40)])
		}
		if n := strings.Count(doc, "</script>"); n != strings.Count(doc, "<script>") {
			t.Errorf("%s: %d <script> but %d </script>", uri, strings.Count(doc, "<script>"), n)
		}
		for _, part := range []string{"{{", "ui/initialize", "ui/notifications/tool-result", "host-context-changed"} {
			if strings.Contains(doc, part) != (part != "{{") {
				t.Errorf("%s: %q present: %v", uri, part, strings.Contains(doc, part))
			}
		}
	}
	if !strings.Contains(views()[ViewHistoryURI], "uPlot") || !strings.Contains(views()[ViewHistoryURI], "view_history") {
		t.Error("the history view lacks uPlot or its tool")
	}
}

// appsPaths are the transports a client reaches the hub by; each gets a
// fresh session.
func appsPaths(h *testHub) map[string]func(t *testing.T) *sdk.ClientSession {
	return map[string]func(t *testing.T) *sdk.ClientSession{
		"in-memory": func(t *testing.T) *sdk.ClientSession { return h.inMemory(t, nil) },
		"streamable 2025-11-25": func(t *testing.T) *sdk.ClientSession {
			return mcptest.ConnectAt(t, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp"}, nil, "2025-11-25")
		},
		"streamable 2026-07-28": func(t *testing.T) *sdk.ClientSession {
			return mcptest.ConnectAt(t, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp"}, nil, "2026-07-28")
		},
		"sse": func(t *testing.T) *sdk.ClientSession {
			return mcptest.ConnectAt(t, &sdk.SSEClientTransport{Endpoint: h.http.URL + "/sse"}, nil, "2025-06-18")
		},
		"stdio": func(t *testing.T) *sdk.ClientSession {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { h.srv.MCP().Run(ctx, transport.Stdio(inR, outW)); close(done) }()
			t.Cleanup(func() { cancel(); inW.Close(); outR.Close(); <-done })
			return mcptest.Connect(t, &sdk.IOTransport{Reader: outR, Writer: inW})
		},
	}
}

// TestAppsOnEveryPath: on every transport the hub declares the extension,
// get_history and get_climate name their views in _meta (both keys),
// view_history is for the view only, and the views read as one document
// of the MCP Apps MIME type.
func TestAppsOnEveryPath(t *testing.T) {
	h := newTestHub(t)
	for name, open := range appsPaths(h) {
		t.Run(name, func(t *testing.T) {
			cs := open(t)
			CheckApps(t, cs)
		})
	}
}

// CheckApps checks what a host with MCP Apps needs of the hub through
// cs; the bridge's test uses it too.
func CheckApps(t *testing.T, cs *sdk.ClientSession) {
	t.Helper()
	ctx := context.Background()
	if caps := cs.InitializeResult().Capabilities; caps == nil || caps.Extensions[AppsExtension] == nil {
		t.Errorf("capabilities without %s: %+v", AppsExtension, caps)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ToolGetHistory: ViewHistoryURI, ToolGetClimate: ViewHouseURI, ToolViewHistory: ViewHistoryURI}
	for _, tool := range tools.Tools {
		uri, ok := want[tool.Name]
		if !ok {
			continue
		}
		delete(want, tool.Name)
		ui, _ := tool.Meta["ui"].(map[string]any)
		if ui["resourceUri"] != uri {
			t.Errorf("%s: _meta %v, want ui.resourceUri %s", tool.Name, tool.Meta, uri)
		}
		appOnly := strings.Contains(toJSON(ui["visibility"]), `"app"`)
		if appOnly != (tool.Name == ToolViewHistory) {
			t.Errorf("%s: visibility %v", tool.Name, ui["visibility"])
		}
		if tool.Name != ToolViewHistory && tool.Meta["ui/resourceUri"] != uri {
			t.Errorf("%s: _meta %v, want ui/resourceUri %s", tool.Name, tool.Meta, uri)
		}
	}
	if len(want) > 0 {
		t.Errorf("tools missing: %v", want)
	}
	for _, uri := range []string{ViewHistoryURI, ViewHouseURI} {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		if len(res.Contents) != 1 || res.Contents[0].MIMEType != AppMIMEType || res.Contents[0].Text != views()[uri] {
			t.Errorf("read %s: %d contents, MIME type %q", uri, len(res.Contents), res.Contents[0].MIMEType)
		}
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAppsTextUnchanged: a host without MCP Apps reads the same text as
// before the views: get_climate's structure and its local times, and
// get_history's series as JSON; the views' data is in _meta and
// structuredContent only.
func TestAppsTextUnchanged(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetClimate, Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("get_climate: %v %+v", err, res)
	}
	snap := h.store.Snapshot()
	if len(res.Content) != 2 || res.Content[0].(*sdk.TextContent).Text != string(snap.JSON) ||
		res.Content[1].(*sdk.TextContent).Text != h.srv.climateTimes(snap.Climate) {
		t.Errorf("get_climate's text changed: %+v", res.Content)
	}
	house, _ := res.Meta[metaHouse].(map[string]any)
	if house["simulated"] != true || house["units"] == nil || house["zones"] == nil {
		t.Errorf("get_climate's _meta: %v", res.Meta)
	}
	args := historyArgs{Zone: "Indoor", Measurement: "Temperature"}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetHistory, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("get_history: %v %+v", err, res)
	}
	series, err := h.srv.history(ctx, args)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || res.Content[0].(*sdk.TextContent).Text != toJSON(series) {
		t.Errorf("get_history's text changed:\n%v\nwant\n%s", res.Content, toJSON(series))
	}
	var back any
	json.Unmarshal([]byte(toJSON(series)), &back)
	if toJSON(res.StructuredContent) != toJSON(back) {
		t.Errorf("get_history's structured content %s", toJSON(res.StructuredContent))
	}
	hist, _ := res.Meta[metaHistory].(map[string]any)
	if toJSON(hist["measurements"]) != `["Temperature","CO2"]` {
		t.Errorf("get_history's _meta: %v", res.Meta)
	}
}

// TestAppsViewHistoryTool: the view's range switch asks for a range and
// gets the series of it, within the points a chart can show; a year in
// local days, from the daily summaries.
func TestAppsViewHistoryTool(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)
	for _, c := range []struct {
		rng  string
		span int64
		bad  bool
	}{{"24h", 86400, false}, {"7d", 7 * 86400, false}, {"1y", 365 * 86400, false}, {"2h", 0, true}} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: ToolViewHistory,
			Arguments: map[string]any{"zone": "Indoor", "measurement": "Temperature", "range": c.rng}})
		if c.bad {
			if err == nil && !res.IsError {
				t.Errorf("range %s: accepted", c.rng)
			}
			continue
		}
		if err != nil || res.IsError {
			t.Fatalf("range %s: %v %+v", c.rng, err, res)
		}
		var s struct {
			From, To   int64
			Step, Tier string
			Points     [][]float64
		}
		json.Unmarshal([]byte(toJSON(res.StructuredContent)), &s)
		// A year answers whole local days: from the midnight that starts
		// the first, up to a day before the year's start.
		slack := int64(3600)
		if c.rng == "1y" {
			slack = 86400 + 3600
			if s.Step != "1d" || s.Tier != "daily summaries" {
				t.Errorf("range 1y: step %q, tier %q; want 1d, daily summaries", s.Step, s.Tier)
			}
		}
		if got := s.To - s.From; got < c.span-3600 || got > c.span+slack || len(s.Points) == 0 || len(s.Points) > viewPoints {
			t.Errorf("range %s: span %d s, %d points", c.rng, got, len(s.Points))
		}
	}
}

// TestAppsHouseBadges: the house view learns from get_climate's _meta
// which zones are stale, with the units of their measurements.
func TestAppsHouseBadges(t *testing.T) {
	for _, c := range []struct {
		staleAfter time.Duration
		stale      bool
	}{{time.Hour, false}, {time.Nanosecond, true}} {
		h := newTestHubWith(t, Options{StaleAfter: c.staleAfter})
		res, err := h.inMemory(t, nil).CallTool(context.Background(), &sdk.CallToolParams{Name: ToolGetClimate, Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("get_climate: %v %+v", err, res)
		}
		var house houseMeta
		if err := json.Unmarshal([]byte(toJSON(res.Meta[metaHouse])), &house); err != nil {
			t.Fatal(err)
		}
		if house.Zones["Indoor"].Stale != c.stale || house.Zones["Rain"].Stale != c.stale {
			t.Errorf("stale after %s: zones %+v", c.staleAfter, house.Zones)
		}
		if u := house.Units["Temperature"]; u.Unit != "°C" || u.Decimals != 1 || u.Kind != "gauge" || house.Units["battery_percent"].Kind != "health" || house.Units["WindAngle"].Kind != "direction" {
			t.Errorf("units %+v", house.Units)
		}
	}
}
