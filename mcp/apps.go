package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/climated/climated/sensors"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP Apps, the extension io.modelcontextprotocol/ui (specification
// 2026-01-26): a tool names a ui:// resource in its _meta, the host reads
// that HTML document and shows it in a sandboxed iframe beside the
// answer, and the view talks to the host over postMessage (views.go).
// Hosts without the extension ignore the _meta and read the text content,
// which is what it was before the views existed.
const (
	// AppsExtension is the extension's name in the capabilities.
	AppsExtension = "io.modelcontextprotocol/ui"
	// AppMIMEType is the MIME type of a view.
	AppMIMEType = "text/html;profile=mcp-app"
	// ViewHistoryURI is the chart of get_history's answer.
	ViewHistoryURI = "ui://climated/history"
	// ViewHouseURI is the cards of get_climate's answer.
	ViewHouseURI = "ui://climated/house"
	// ToolViewHistory is the history view's own tool (its range and
	// measurement switches): visible to the view only, not to the model.
	ToolViewHistory = "view_history"
	// metaHistory and metaHouse are the keys of the result's _meta that
	// carry what the views show beyond the structured content (the
	// zone's other measurements; units, badges, alerts). The model is
	// not shown a result's _meta.
	metaHistory = "climated/history"
	metaHouse   = "climated/house"
)

// viewRanges are the history view's range switches, with their "from"
// and whether they are read in local days: a year is, from the daily
// summaries.
var viewRanges = map[string]struct {
	from string
	days bool
}{
	"24h": {from: "24h"}, "7d": {from: "7d"}, "30d": {from: "30d"}, "1y": {from: "365d", days: true},
}

// viewPoints is how many points the view asks for: about a point per
// pixel of a chat column.
const viewPoints = 400

// viewMeta is a tool's _meta naming its view, under the key of the
// specification and the older flat key some hosts still read.
func viewMeta(uri string) sdk.Meta {
	return sdk.Meta{"ui": map[string]any{"resourceUri": uri}, "ui/resourceUri": uri}
}

// addViews adds the two views as resources and the history view's tool.
func (s *Server) addViews() {
	for _, v := range []struct{ uri, name, title, desc string }{
		{ViewHistoryURI, "history-view", "History chart", "The chart of get_history's answer, for hosts with MCP Apps."},
		{ViewHouseURI, "house-view", "House cards", "The cards of get_climate's answer, for hosts with MCP Apps."},
	} {
		s.mcp.AddResource(&sdk.Resource{
			URI: v.uri, Name: v.name, Title: v.title, Description: v.desc, MIMEType: AppMIMEType,
			Meta: sdk.Meta{"ui": map[string]any{"prefersBorder": true}},
		}, s.readView)
	}
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolViewHistory,
		Title:       "History chart",
		Description: "The history chart's range and measurement switches.",
		InputSchema: object(map[string]*jsonschema.Schema{
			"zone": str(""), "measurement": str(""), "range": enum("", slices.Sorted(maps.Keys(viewRanges))),
		}, "zone", "measurement", "range"),
		Annotations: readOnly(),
		Meta:        sdk.Meta{"ui": map[string]any{"resourceUri": ViewHistoryURI, "visibility": []string{"app"}}},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, a viewHistoryArgs) (*sdk.CallToolResult, any, error) {
		return s.historyResult(ctx, historyArgs{Zone: a.Zone, Measurement: a.Measurement, From: viewRanges[a.Range].from, days: viewRanges[a.Range].days, MaxPoints: viewPoints})
	})
}

type viewHistoryArgs struct {
	Zone        string `json:"zone"`
	Measurement string `json:"measurement"`
	Range       string `json:"range"`
}

func (s *Server) readView(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	doc, ok := views()[req.Params.URI]
	if !ok {
		return nil, sdk.ResourceNotFoundError(req.Params.URI) // only the two are added
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{
		URI: req.Params.URI, MIMEType: AppMIMEType, Text: doc,
		Meta: sdk.Meta{"ui": map[string]any{"prefersBorder": true}},
	}}}, nil
}

// historyResult is get_history's answer (and the view's): the series as
// text and structured content, as before the views, and in _meta the
// zone's measurements for the view's switch.
func (s *Server) historyResult(ctx context.Context, a historyArgs) (*sdk.CallToolResult, any, error) {
	res, err := s.history(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	r, _, err := jsonToolResult(res)
	if err != nil {
		return nil, nil, err
	}
	r.Meta = sdk.Meta{metaHistory: map[string]any{"measurements": s.measurementsOf(res.Zone), "simulated": s.simulated()}}
	return r, nil, nil
}

// measurementsOf lists the measurements zone has, in catalogue order,
// the health values left out.
func (s *Server) measurementsOf(zone string) []string {
	has := map[string]bool{}
	for _, z := range s.hub.Describe() {
		if z.Name == zone {
			for _, m := range z.Measurements {
				has[string(m.Name)] = true
			}
		}
	}
	out := []string{}
	for _, info := range sensors.Catalogue() {
		if has[string(info.Name)] && info.Kind != sensors.Health {
			out = append(out, string(info.Name))
		}
	}
	return out
}

// houseMeta is what the house view shows beyond get_climate's structure:
// units and decimals, the catalogue's order, stale and fault badges, the
// alerts that are on, and whether the house is the simulated one.
type houseMeta struct {
	Simulated bool                 `json:"simulated"`
	Units     map[string]unitView  `json:"units"`
	Order     []string             `json:"order"`
	Zones     map[string]zoneBadge `json:"zones"`
	Alerts    []activeView         `json:"alerts"`
}

type unitView struct {
	Unit     string `json:"unit,omitempty"`
	Decimals int    `json:"decimals"`
	Kind     string `json:"kind"`
}

type zoneBadge struct {
	Stale bool   `json:"stale,omitempty"`
	Fault string `json:"fault,omitempty"`
}

// kindNames are the kinds as the views (and the dashboard) name them.
var kindNames = map[sensors.Kind]string{sensors.Gauge: "gauge", sensors.Amount: "amount", sensors.Direction: "direction", sensors.Health: "health"}

func (s *Server) houseMeta(ctx context.Context) houseMeta {
	m := houseMeta{Simulated: s.simulated(), Units: map[string]unitView{}, Zones: map[string]zoneBadge{}, Alerts: []activeView{}}
	for _, info := range sensors.Catalogue() {
		m.Order = append(m.Order, string(info.Name))
		m.Units[string(info.Name)] = unitView{Unit: info.Unit, Decimals: info.Decimals, Kind: kindNames[info.Kind]}
	}
	for _, z := range s.describe() {
		m.Zones[z.Name] = zoneBadge{Stale: z.Stale, Fault: z.LastError}
	}
	if s.opts.Alerts != nil {
		if active, err := s.active(ctx); err == nil {
			m.Alerts = active
		}
	}
	return m
}

// houseMetaJSON is houseMeta as it goes into the result's _meta.
func (s *Server) houseMetaJSON(ctx context.Context) json.RawMessage {
	b, _ := json.Marshal(s.houseMeta(ctx)) // plain values: cannot fail
	return b
}
