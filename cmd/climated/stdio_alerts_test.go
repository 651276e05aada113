package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
)

// TestStdioAlerts: a standalone climated mcp beside a running hub serves
// the alerts from the database, read-only: list_alerts (the house rules as
// the configuration sets them, the rules an assistant created on the hub,
// the alerts that are on), the active alerts and the history, and tells a
// subscriber of each new alert. It offers no create_alert or delete_alert:
// the hub's engine would not see a rule it added; list_alerts says where
// to change rules.
func TestStdioAlerts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "climated.yaml")
	if err := os.WriteFile(path, []byte("listen: 127.0.0.1:0\ndatabase: "+filepath.Join(dir, "climated.db")+
		"\ndemo: {interval: 1s}\nalerts:\n  house:\n    frost: {enabled: false}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseServe([]string{"--config", path}, io.Discard, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	h := startHub(t, cfg)
	ctx := t.Context()
	hubClient, err := sdk.NewClient(&sdk.Implementation{Name: "hub-test", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + h.Addr.String() + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hubClient.Close()
	// Fires with the zone's next reading (every second).
	createOnHub := func(zone string) {
		t.Helper()
		res, err := hubClient.CallTool(ctx, &sdk.CallToolParams{Name: "create_alert", Arguments: map[string]any{
			"zone": zone, "measurement": "Temperature", "kind": "above", "threshold": -20}})
		if err != nil || res.IsError {
			t.Fatalf("create_alert on the hub: %v %+v", err, res)
		}
	}
	createOnHub("Indoor")

	cmd := climated("mcp", "--config", path)
	var stderr testutil.Buffer
	cmd.Stderr = &stderr
	updated := make(chan string, 16)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "stdio-test", Version: "1"}, &sdk.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *sdk.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI },
	}).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()

	checkStdioAlertTools(t, cs)
	var list struct {
		Rules []struct {
			ID string `json:"id"`
		} `json:"rules"`
		Active []struct {
			Rule, Zone, Phase string
		} `json:"active"`
	}
	on := testutil.EventuallyWithin(20*time.Second, func() bool {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_alerts"})
		if err != nil || res.IsError {
			t.Fatalf("list_alerts: %v %+v\n%s", err, res, stderr.String())
		}
		json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &list)
		return slices.ContainsFunc(list.Active, func(a struct{ Rule, Zone, Phase string }) bool { return a.Rule == "u1" && a.Zone == "Indoor" })
	})
	if !on {
		t.Fatalf("u1 never on in Indoor over stdio: %+v", list)
	}
	var ids []string
	for _, r := range list.Rules {
		ids = append(ids, r.ID)
	}
	if !slices.Contains(ids, "u1") || !slices.Contains(ids, "house.co2") || slices.Contains(ids, "house.frost") {
		t.Errorf("rules over stdio %v: want u1 and the configured house rules (frost off)", ids)
	}
	if text := readStdio(t, cs, "climate://alerts/active"); !strings.Contains(text, `"rule":"u1"`) {
		t.Errorf("climate://alerts/active: %s", text)
	}
	if text := readStdio(t, cs, "climate://alerts/history?since=1h"); !strings.Contains(text, `"type":"fired","rule":"u1"`) {
		t.Errorf("climate://alerts/history: %s", text)
	}

	if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: "climate://alerts/history"}); err != nil {
		t.Fatal(err)
	}
	createOnHub("Bedroom") // u2, fired by the hub: the stdio server hears of it from the database
	select {
	case uri := <-updated:
		if uri != "climate://alerts/history" {
			t.Errorf("updated %q", uri)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("no resources/updated over stdio within 15 s\n%s", stderr.String())
	}
	if text := readStdio(t, cs, "climate://alerts/history?limit=1"); !strings.Contains(text, `"rule":"u2"`) {
		t.Errorf("the newest event over stdio: %s", text)
	}
}

// checkStdioAlertTools: list_alerts, saying where rules are changed; no
// create_alert or delete_alert.
func checkStdioAlertTools(t *testing.T, cs *sdk.ClientSession) {
	t.Helper()
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Name == "list_alerts" && !strings.Contains(tool.Description, "cannot change rules") {
			t.Errorf("list_alerts over stdio: %q does not say rules are changed on the hub", tool.Description)
		}
	}
	if !slices.Contains(names, "list_alerts") || slices.Contains(names, "create_alert") || slices.Contains(names, "delete_alert") {
		t.Errorf("tools over stdio %v: want list_alerts, not create_alert or delete_alert", names)
	}
}

func readStdio(t *testing.T, cs *sdk.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(t.Context(), &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	return res.Contents[0].Text
}
