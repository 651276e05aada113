package mcp

import (
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

func enum(desc string, values []string) *jsonschema.Schema {
	s := str(desc)
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// The output schemas name the keys every result has (required) and say
// no more: the tool's description says what the keys hold, the result's
// text carries every field, and the schemas are read by the model on
// every tools/list, where a typed property costs as much as a sentence.
// The go-sdk does not validate structured content a tool hands it ready
// made: cmd/climated's TestOutputSchemasHoldServed holds every answer to
// its schema.
func keys(required ...string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: required}
}

// climateOutputSchema: zone → an object of keys, which the description
// lists with their values (numbers, the trends' words).
var climateOutputSchema = &jsonschema.Schema{
	Type:                 "object",
	AdditionalProperties: &jsonschema.Schema{Type: "object"},
}

func historyInputSchema(measurements []string) *jsonschema.Schema {
	maxPoints := integer("default 500")
	lo, hi := 1.0, float64(maxPointsLimit)
	maxPoints.Minimum, maxPoints.Maximum = &lo, &hi
	return object(map[string]*jsonschema.Schema{
		"zone":        {Type: "string"},
		"measurement": enum("", measurements),
		"from":        str("24h, 7d, today, yesterday, 2026-11-30 or RFC 3339 (default 24h)"),
		"to":          str("same forms (default now)"),
		"step":        str("1m, 15m, 1h, 1d (default: fits max_points)"),
		"max_points":  maxPoints,
	}, "zone", "measurement")
}

var (
	historyOutputSchema = keys("zone", "measurement", "points")
	zonesOutputSchema   = keys("zones")
)

func reportInputSchema(kinds []string) *jsonschema.Schema {
	return object(map[string]*jsonschema.Schema{
		"kind":   enum("default climate_report", kinds),
		"zone":   str("default: the whole house"),
		"period": enum("default: the kind's own", periodNames()),
	})
}
