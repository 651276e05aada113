package mcp

import (
	"github.com/climated/climated/sensors"
	"github.com/google/jsonschema-go/jsonschema"
)

// The tools' schemas are written here by hand, within the subset of JSON
// Schema that model providers accept for tool parameters and structured
// output (OpenAI's strict mode, Gemini's response schemas): one type per
// schema, never a type array (which the go-sdk's inference makes for
// slices and pointers); no $ref, oneOf, allOf or const; anyOf, enum,
// minimum/maximum, items and properties. TestToolSchemasFitModelSubsets
// holds them to it.

// maxPointsLimit is the largest max_points a history read takes.
const maxPointsLimit = 2000

func str(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc}
}

func integer(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Description: desc}
}

func object(props map[string]*jsonschema.Schema, required ...string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: props, Required: required}
}

func arrayOf(items *jsonschema.Schema, desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Items: items, Description: desc}
}

func enum(desc string, values []string) *jsonschema.Schema {
	s := str(desc)
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// measurementNamesAll lists every measurement of the catalogue: the set
// get_history takes is closed.
func measurementNamesAll() []string {
	var names []string
	for _, m := range sensors.Measurements() {
		names = append(names, string(m))
	}
	return names
}

// climateOutputSchema: zone → key → a number or a trend word.
var climateOutputSchema = &jsonschema.Schema{
	Type:        "object",
	Description: "zone name → measurement key → value",
	AdditionalProperties: &jsonschema.Schema{
		Type: "object",
		AdditionalProperties: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
			{Type: "number"},
			{Type: "string", Enum: []any{"up", "down", "stable"}},
		}},
	},
}

func historyInputSchema() *jsonschema.Schema {
	maxPoints := integer("at most this many points (default 500); a finer step is coarsened")
	lo, hi := 1.0, float64(maxPointsLimit)
	maxPoints.Minimum, maxPoints.Maximum = &lo, &hi
	return object(map[string]*jsonschema.Schema{
		"zone":        str("zone name, as in get_climate"),
		"measurement": enum("measurement key, as in get_climate", measurementNamesAll()),
		"from":        str("start: now, 24h, 7d, today, yesterday, 2026-11-30 or RFC 3339 (default 24h ago)"),
		"to":          str("end, same forms (default now)"),
		"step":        str("bucket width: 1m, 15m, 1h, 1d (default: fits max_points)"),
		"max_points":  maxPoints,
	}, "zone", "measurement")
}

var historyOutputSchema = object(map[string]*jsonschema.Schema{
	"zone":         str(""),
	"measurement":  str(""),
	"unit":         str(""),
	"from":         integer(""),
	"to":           integer(""),
	"step":         str(""),
	"step_seconds": integer(""),
	"tier":         str(""),
	"note":         str(""),
	"summary":      {Description: "null without readings"},
	"columns":      arrayOf(&jsonschema.Schema{Type: "string"}, ""),
	"points":       arrayOf(arrayOf(&jsonschema.Schema{Type: "number"}, ""), ""),
}, "zone", "measurement", "points")

var zonesOutputSchema = object(map[string]*jsonschema.Schema{
	"zones": arrayOf(object(map[string]*jsonschema.Schema{
		"name":       str(""),
		"stale":      {Type: "boolean"},
		"last_error": str(""),
		"when":       integer(""),
		"local_time": str("when, ISO 8601 local"),
		"sources":    arrayOf(&jsonschema.Schema{Type: "string"}, ""),
		"measurements": arrayOf(object(map[string]*jsonschema.Schema{
			"name": str(""), "unit": str(""), "description": str(""), "source": str(""),
			"value": {Type: "number"}, "when": integer(""),
		}), ""),
	}, "name", "stale", "when"), ""),
}, "zones")

func reportInputSchema(kinds []string) *jsonschema.Schema {
	return object(map[string]*jsonschema.Schema{
		"kind":   enum("default climate_report", kinds),
		"zone":   str("one zone; leave out for the whole house"),
		"period": enum("default: the kind's own", periodNames()),
	})
}
