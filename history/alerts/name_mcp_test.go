package alerts_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCreateAlertToolRefusesName: the MCP tool create_alert, the way an
// assistant creates a rule, answers a name with a control or format
// character with an error result that says which and where, and keeps
// nothing. (Here, not in package mcp, because the check is this
// package's; the tool is driven from outside as a client drives it.)
func TestCreateAlertToolRefusesName(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	store, err := hub.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(ctx)
	db, err := alerts.OpenDB(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	zones := []string{"Bedroom"}
	e, err := alerts.New(ctx, &alerts.Options{Zones: zones, House: none(), Store: db})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcp.New(t.Context(), store, &mcp.Options{Zones: zones, Version: "test", Alerts: mcp.NewAlerts(e, db)})
	defer srv.Close()
	st, ct := sdk.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	for _, tc := range badNames[:4] {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: mcp.ToolCreateAlert, Arguments: map[string]any{
			"zone": "Bedroom", "measurement": "CO2", "kind": "above", "threshold": 1200, "name": tc.name}})
		if err != nil {
			t.Fatalf("create_alert %q: %v", tc.name, err)
		}
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		if !res.IsError {
			t.Errorf("create_alert %q: %q, want an error result", tc.name, text.String())
		}
		for _, w := range append([]string{"name:"}, tc.want...) {
			if !strings.Contains(text.String(), w) {
				t.Errorf("create_alert %q: %q lacks %q", tc.name, text.String(), w)
			}
		}
	}
	if rules, err := db.Rules(ctx); err != nil || len(rules) != 0 {
		t.Errorf("kept rules %+v, %v; want none", rules, err)
	}
}
