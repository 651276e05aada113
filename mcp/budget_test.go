package mcp

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// Context budgets at default arguments, in tokens (≈ characters / 4): what
// one call puts into a model's context. The budget of tools/list (1,500)
// is measured on the served hub, with every tool it lists, by
// cmd/climated's TestToolsListBudgetServed, in the same measure.
const (
	budgetGetClimate = 300
	budgetHistory    = 2500
	budgetReport7d   = 4000
	budgetAirReport  = 1500
	// The weather report's digest is worked out on the hub: a line a
	// zone, whatever the period (TestWeatherPrompt measures a station's).
	budgetWeatherReport = 1200
	// A month's days of a zone, and a year of it per month; the reports
	// over a month (its days) and over a year (its months).
	budgetDaily31d    = 12000
	budgetMonths      = 5000
	budgetReportMonth = 16000
	budgetReportYear  = 8000
)

// tokens is the measure of every budget: (bytes + 3) / 4 of the text,
// compact JSON where the text is JSON.
func tokens(s string) int { return (len(s) + 3) / 4 }

// yearOfDemo is a hub with a full year of the demo house's history: hourly
// readings for 365 days, then every 5 minutes for the last day.
func yearOfDemo(t *testing.T, loc *time.Location) *testHub {
	t.Helper()
	ctx := context.Background()
	// Outdoor zones' days have their degree days and the sun's times, as
	// on a hub whose location is configured (Berlin).
	store, err := hub.Open(ctx, filepath.Join(t.TempDir(), "h.db"), &history.Options{Location: loc,
		Outdoors: &history.Outdoors{DegreeDayBase: 18, Place: &history.Place{Latitude: 52.52, Longitude: 13.40}}})
	if err != nil {
		t.Fatal(err)
	}
	house := demo.New(&demo.Options{Location: loc})
	now := time.Now().Truncate(5 * time.Minute)
	var batch []sensors.Reading
	flush := func() {
		if err := store.Record(ctx, sensors.Batch{Readings: batch}); err != nil {
			t.Fatal(err)
		}
		batch = batch[:0]
	}
	for at := now.AddDate(-1, 0, 0); !at.After(now); {
		batch = append(batch, house.At(at)...)
		if len(batch) > 20000 {
			flush()
		}
		if now.Sub(at) > 24*time.Hour {
			at = at.Add(time.Hour)
		} else {
			at = at.Add(5 * time.Minute)
		}
	}
	flush()
	if err := store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &Options{Zones: house.Zones(), Simulated: true, Location: loc, Version: "test"})
	h := &testHub{store: store, srv: srv}
	t.Cleanup(func() {
		srv.Close()
		store.Close(context.Background())
	})
	return h
}

// promptContent is what a prompt puts into a model's context: its text and
// its embedded resources with their URIs.
func promptContent(t *testing.T, cs *sdk.ClientSession, name string, args map[string]string) string {
	t.Helper()
	prompt, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	s := ""
	for _, m := range prompt.Messages {
		switch c := m.Content.(type) {
		case *sdk.TextContent:
			s += c.Text
		case *sdk.EmbeddedResource:
			s += c.Resource.URI + c.Resource.Text
		}
	}
	return s
}

// TestContextBudget measures, with a year of demo history, what a model
// reads at default arguments: get_climate, a history read, the whole-house
// 7-day report prompt and the air-quality report, and that the year's
// history has the demo house's air quality.
func TestContextBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("records a year of demo history")
	}
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	h := yearOfDemo(t, loc)
	cs := h.inMemory(t, nil)
	ctx := context.Background()
	text := func(r *sdk.CallToolResult, err error) string {
		t.Helper()
		if err != nil || r.IsError {
			t.Fatalf("call: %v %+v", err, r)
		}
		s := ""
		for _, c := range r.Content {
			s += c.(*sdk.TextContent).Text
		}
		return s
	}
	climate := text(cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetClimate, Arguments: map[string]any{}}))
	hist := text(cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetHistory, Arguments: map[string]any{"zone": "Indoor", "measurement": "Temperature"}}))
	report := promptContent(t, cs, "climate_report", map[string]string{"period": "last_7_days"})
	air := promptContent(t, cs, "air_quality_report", nil)
	weather := promptContent(t, cs, "weather_report", map[string]string{"period": "last_7_days"})
	read := func(uri string) string {
		t.Helper()
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		return res.Contents[0].Text
	}
	daily := read("climate://daily/Indoor?from=30d")
	months := read("climate://months/Indoor?year=" + strconv.Itoa(time.Now().In(loc).AddDate(0, -6, 0).Year()))
	month := promptContent(t, cs, "climate_report", map[string]string{"period": "last_30_days"})
	year := promptContent(t, cs, "climate_report", map[string]string{"period": "this_year"})
	if !strings.Contains(year, "climate://months/Indoor?") || strings.Contains(year, "climate://daily/") {
		t.Errorf("the year's report reads %.300s…; want the months resource, not the days", year)
	}
	for _, k := range []string{`"PM25":`, `"VOCIndex":`, `"NOxIndex":`} {
		if !strings.Contains(climate, k) || !strings.Contains(air, k) {
			t.Errorf("the year of demo history has no %s: get_climate %s", k, climate)
		}
	}
	for _, c := range []struct {
		what   string
		text   string
		budget int
	}{
		{"get_climate", climate, budgetGetClimate},
		{"get_history (Indoor Temperature)", hist, budgetHistory},
		{"climate_report, whole house, last_7_days", report, budgetReport7d},
		{"air_quality_report, whole house, last_24h", air, budgetAirReport},
		{"weather_report, whole house, last_7_days", weather, budgetWeatherReport},
		{"climate://daily/Indoor, 30 days", daily, budgetDaily31d},
		{"climate://months/Indoor, a year", months, budgetMonths},
		{"climate_report, whole house, last_30_days", month, budgetReportMonth},
		{"climate_report, whole house, this_year", year, budgetReportYear},
	} {
		n := tokens(c.text)
		t.Logf("%s: %d tokens (%d characters), budget %d", c.what, n, len(c.text), c.budget)
		if n > c.budget {
			t.Errorf("%s: %d tokens, over the budget of %d", c.what, n, c.budget)
		}
	}
}
