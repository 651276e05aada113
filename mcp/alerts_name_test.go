package mcp

import (
	"context"
	"strings"
	"testing"
)

// TestCreateAlertToolRefusesName: create_alert, the way an assistant
// creates a rule, answers a name with a control or format character with
// an error result that says which and where, and keeps nothing. The names
// are the first of history/alerts' badNames (name_test.go), which checks
// every way to a rule; this is the way through MCP.
func TestCreateAlertToolRefusesName(t *testing.T) {
	h := newAlertHub(t)
	cs := h.inMemory(t, nil)
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"Bed\rroom", []string{"U+000D (CARRIAGE RETURN), a control character", "character 4 of"}},
		{"mould\nFAKE LOG LINE", []string{"U+000A (LINE FEED)", "character 6 of"}},
		{"nul\x00", []string{"U+0000 (NUL)", "character 4 of"}},
		{"CO2 \u202empp 0021", []string{"U+202E (RIGHT-TO-LEFT OVERRIDE), a format character", "character 5 of", `"CO2 \u202empp 0021"`}},
	} {
		res, text := callTool(t, cs, ToolCreateAlert, map[string]any{
			"zone": "Bedroom", "measurement": "CO2", "kind": "above", "threshold": 1200, "name": tc.name})
		if !res.IsError {
			t.Errorf("create_alert %q: %q, want an error result", tc.name, text)
		}
		for _, w := range append([]string{"name:"}, tc.want...) {
			if !strings.Contains(text, w) {
				t.Errorf("create_alert %q: %q lacks %q", tc.name, text, w)
			}
		}
	}
	if rules, err := h.db.Rules(context.Background()); err != nil || len(rules) != 0 {
		t.Errorf("kept rules %+v, %v; want none", rules, err)
	}
}
