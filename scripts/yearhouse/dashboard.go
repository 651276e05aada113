package main

import (
	"context"
	"net/http"
	"net/url"
)

// The dashboard's history requests at its two longest ranges, as wide as
// a chart may ask (cmd/climated/internal/dash/history.go): the JSON the
// page fetches when a chart opens on them.
var (
	dashRanges = []string{"1y", "30d"}
	dashPoints = "2000"
)

// addDashboard plans the dashboard's JSON requests: its state, and each
// series' history at each of dashRanges; and the plain JSON API.
func (p *plan) addDashboard(hc *http.Client, base string) {
	add := func(label, path string) {
		p.answers = append(p.answers, answer{label: label, kind: "dashboard", of: path, call: func(ctx context.Context) (int, error) {
			return get(ctx, hc, base+path)
		}})
	}
	add("/dash/state", "/dash/state")
	add("/api/climate", "/api/climate")
	for _, r := range dashRanges {
		for _, z := range p.h.zones {
			for _, m := range p.h.series[z] {
				q := url.Values{"zone": {z}, "m": {m}, "range": {r}, "points": {dashPoints}}
				add("/dash/history "+z+"/"+m+" "+r, "/dash/history?"+q.Encode())
			}
		}
	}
}

// schemaEnum is the enum of property prop of a JSON Schema as a client
// decodes it.
func schemaEnum(schema any, prop string) []string {
	props, _ := asMap(schema)["properties"].(map[string]any)
	list, _ := asMap(props[prop])["enum"].([]any)
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// schemaRequired lists the required properties of a JSON Schema.
func schemaRequired(schema any) []string {
	list, _ := asMap(schema)["required"].([]any)
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
