package mcp

// What the alert tools show clients: none without alerts, their schemas,
// and the reports that mention alerts.

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNoAlertsNoTools: a hub without alerts lists no alert tools.
func TestNoAlertsNoTools(t *testing.T) {
	h := newTestHub(t)
	cs := h.inMemory(t, nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if strings.Contains(tl.Name, "alert") {
			t.Errorf("tool %s without alerts", tl.Name)
		}
	}
}

// TestAlertToolSchemas: the alert tools' schemas fit the model providers'
// subset, and the tools that answer structured content declare it.
func TestAlertToolSchemas(t *testing.T) {
	h := newAlertHub(t)
	cs := h.inMemory(t, nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tool := range tools.Tools {
		if !strings.Contains(tool.Name, "alert") {
			continue
		}
		n++
		for what, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			raw, _ := json.Marshal(schema)
			var generic any
			json.Unmarshal(raw, &generic)
			if err := fitsModelSubset(tool.Name+" "+what, generic); schema != nil && err != nil {
				t.Errorf("%v\n%s", err, raw)
			}
		}
	}
	if n != 3 {
		t.Errorf("%d alert tools, want 3", n)
	}
	for name, args := range map[string]map[string]any{ToolCreateAlert: co2Rule, ToolListAlerts: nil} {
		if res, text := callTool(t, cs, name, args); res.IsError || res.StructuredContent == nil {
			t.Errorf("%s: no structured content: %s", name, text)
		}
	}
}

// promptAll is a prompt's instructions and embedded resources in one text.
func promptAll(t *testing.T, cs *sdk.ClientSession, name string, args map[string]string) string {
	t.Helper()
	text, embedded := promptText(t, cs, name, args)
	for uri, body := range embedded {
		text += "\n" + uri + " " + body
	}
	return text
}

// TestReportsMentionAlerts: a report over a period carries the alerts of
// that period and says to mention them; a report on the present carries
// the alerts that are on; a hub without alerts says nothing of them.
func TestReportsMentionAlerts(t *testing.T) {
	h := newAlertHub(t)
	cs := h.inMemory(t, nil)
	callTool(t, cs, ToolCreateAlert, with(co2Rule, "for", nil))
	fired := h.observe(t, "Bedroom", sensors.CO2, 1350)
	if len(fired) != 1 {
		t.Fatalf("events %v", fired)
	}
	text := promptAll(t, cs, "climate_report", map[string]string{"period": "today"})
	if !strings.Contains(text, "Mention the alerts of the period") || !strings.Contains(text, fired[0].Text) ||
		!strings.Contains(text, URIAlertsHistory+"?") {
		t.Errorf("climate_report today:\n%s", text)
	}
	if text := promptAll(t, cs, "climate_report", map[string]string{"period": "yesterday"}); strings.Contains(text, fired[0].Text) {
		t.Errorf("yesterday's report has today's alert:\n%s", text)
	}
	text = promptAll(t, cs, "comfort_assessment", nil)
	if !strings.Contains(text, "alerts that are on now") || !strings.Contains(text, `"rule":"u1"`) {
		t.Errorf("comfort_assessment:\n%s", text)
	}
	plain := newTestHub(t).inMemory(t, nil)
	if text := promptAll(t, plain, "climate_report", nil); strings.Contains(text, "alerts") {
		t.Errorf("a hub without alerts mentions them:\n%s", text)
	}
}
