package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// surface is everything the server lists.
type surface struct {
	tools     []*sdk.Tool
	resources []*sdk.Resource
	templates []*sdk.ResourceTemplate
	prompts   []*sdk.Prompt
}

func listSurface(ctx context.Context, cs *sdk.ClientSession) (surface, error) {
	var s surface
	var errs []error
	for t, err := range cs.Tools(ctx, nil) {
		s.tools, errs = appendOr(s.tools, t, errs, err)
	}
	for r, err := range cs.Resources(ctx, nil) {
		s.resources, errs = appendOr(s.resources, r, errs, err)
	}
	for r, err := range cs.ResourceTemplates(ctx, nil) {
		s.templates, errs = appendOr(s.templates, r, errs, err)
	}
	for p, err := range cs.Prompts(ctx, nil) {
		s.prompts, errs = appendOr(s.prompts, p, errs, err)
	}
	if len(errs) > 0 {
		return s, fmt.Errorf("list the server's features: %w", errs[0])
	}
	return s, nil
}

func appendOr[T any](list []T, v T, errs []error, err error) ([]T, []error) {
	if err != nil {
		return list, append(errs, err)
	}
	return append(list, v), errs
}

// house is what get_climate says the hub holds: its zones and the
// measurements each records (only those get_history takes).
type house struct {
	series map[string][]string // zone → measurements, in the catalogue's order
	zones  []string            // main first, then the others by name
	main   string              // the zone with the most measurements (the station's)
	room   string              // a room to compare it with
}

// readHouse calls get_climate and keeps the zones' measurements that the
// catalogue knows (the structure's derived keys are no measurements).
func readHouse(ctx context.Context, cs *sdk.ClientSession) (house, error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate", Arguments: map[string]any{}})
	if err != nil {
		return house{}, fmt.Errorf("get_climate: %w", err)
	}
	var structure map[string]map[string]any
	if len(res.Content) == 0 {
		return house{}, fmt.Errorf("get_climate: no content")
	}
	t, _ := res.Content[0].(*sdk.TextContent)
	if t == nil || json.Unmarshal([]byte(t.Text), &structure) != nil {
		return house{}, fmt.Errorf("get_climate: the first content is not the structure's JSON")
	}
	h := house{series: map[string][]string{}}
	for zone, keys := range structure {
		for _, info := range sensors.Catalogue() {
			if _, ok := keys[string(info.Name)]; ok && info.Kind != sensors.Health {
				h.series[zone] = append(h.series[zone], string(info.Name))
			}
		}
		if len(h.series[zone]) > 0 {
			h.zones = append(h.zones, zone)
		}
	}
	if len(h.zones) == 0 {
		return h, fmt.Errorf("get_climate: the hub has no zone with a measurement (was the house imported?)")
	}
	sort.Slice(h.zones, func(i, j int) bool {
		a, b := len(h.series[h.zones[i]]), len(h.series[h.zones[j]])
		return a > b || a == b && h.zones[i] < h.zones[j]
	})
	h.main, h.room = h.zones[0], h.zones[len(h.zones)-1]
	if slices.Contains(h.zones, "Living") {
		h.room = "Living"
	}
	return h, nil
}

// has reports whether zone records m.
func (h house) has(zone, m string) bool { return slices.Contains(h.series[zone], m) }

// byKind picks, of zone's measurements, the first of each kind (a gauge,
// a direction, an amount): the history answers differ by kind.
func (h house) byKind(zone string) []string {
	var picked []string
	seen := map[sensors.Kind]bool{}
	for _, m := range h.series[zone] {
		info, _ := sensors.Lookup(sensors.Measurement(m))
		if !seen[info.Kind] {
			seen[info.Kind] = true
			picked = append(picked, m)
		}
	}
	return picked
}
