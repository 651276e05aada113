package mcp

import (
	"context"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPeriodsInTheirFirstSecond: a report over this_month or this_year
// can be asked for at any time, the first instant of the month or year
// too. Tried: climate_report, rain_summary and weather_report for
// this_month and this_year at 00:00:00.5 on 2027-01-01 in Berlin. A
// hole: findPeriod writes the period's bounds as RFC 3339 (whole
// seconds), so to (now, 00:00:00.5) becomes 00:00:00, the period's first
// instant, and climate://daily (and the weather digest, this_year too)
// refuse from=to as "not before": those reports fail in the first
// second of every month.
func TestPeriodsInTheirFirstSecond(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	now := time.Date(2027, 1, 1, 0, 0, 0, 500_000_000, berlin)
	h := newTestHubWith(t, Options{Location: berlin, Now: func() time.Time { return now }})
	cs := h.inMemory(t, nil)
	for _, c := range []struct{ prompt, period string }{
		{"climate_report", "this_month"},
		{"rain_summary", "this_month"},
		{"weather_report", "this_month"},
		{"weather_report", "this_year"},
	} {
		if _, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: c.prompt, Arguments: map[string]string{"period": c.period}}); err != nil {
			t.Errorf("%s for %s at %s: %v", c.prompt, c.period, now.Format("2006-01-02 15:04:05.0 MST"), err)
		}
	}
}
