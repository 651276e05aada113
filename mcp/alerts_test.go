package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
	"github.com/climated/climated/sensors"
)

// alertHub is a real history file with the alert tables of the alerts' part of the schema,
// a real engine persisting to it, and the server on loopback HTTP.
type alertHub struct {
	engine *alerts.Engine
	db     *alerts.DB
	srv    *Server
	http   *httptest.Server
}

func newAlertHub(t *testing.T) *alertHub {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	store, err := hub.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := alerts.OpenDB(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	engine, err := alerts.New(ctx, &alerts.Options{Zones: []string{"Indoor", "Bedroom"}, Store: db})
	if err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &Options{Zones: []string{"Indoor", "Bedroom"}, Version: "test", Alerts: NewAlerts(engine, db)})
	h := &alertHub{engine: engine, db: db, srv: srv, http: httptest.NewServer(srv.Handler())}
	t.Cleanup(func() {
		srv.Close()
		h.http.Close()
		db.Close()
		store.Close(ctx)
	})
	return h
}

// observe feeds one reading to the engine and hands its events to the
// server, as the hub does.
func (h *alertHub) observe(t *testing.T, zone string, m sensors.Measurement, v float64) []alerts.Event {
	t.Helper()
	evs, err := h.engine.Observe(context.Background(), []sensors.Reading{reading(zone, m, v, time.Now())})
	if err != nil {
		t.Fatal(err)
	}
	h.srv.AlertEvent(context.Background(), evs)
	return evs
}

func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return res, text.String()
}

var co2Rule = map[string]any{"zone": "Bedroom", "measurement": "CO2", "kind": "above", "threshold": 1200, "for": "15m"}

const co2Words = "Bedroom CO2 above 1200 ppm for 15 min (clears below 1100 ppm)"

func TestAlertToolsCreateListDelete(t *testing.T) {
	h := newAlertHub(t)
	cs := h.inMemory(t, nil)
	res, text := callTool(t, cs, ToolCreateAlert, co2Rule)
	if res.IsError || !strings.Contains(text, `"id":"u1"`) || !strings.Contains(text, co2Words) {
		t.Fatalf("create: %s", text)
	}
	_, text = callTool(t, cs, ToolListAlerts, nil)
	var list struct {
		Rules  []ruleView   `json:"rules"`
		Active []activeView `json:"active"`
	}
	if err := json.Unmarshal([]byte(text), &list); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	ids := func() []string {
		var out []string
		for _, r := range list.Rules {
			out = append(out, r.ID)
		}
		return out
	}
	if !slices.Contains(ids(), "u1") || !slices.Contains(ids(), "house.co2") || list.Active == nil {
		t.Errorf("list: %s", text)
	}
	if res, text := callTool(t, cs, ToolDeleteAlert, map[string]any{"id": "u1"}); res.IsError {
		t.Fatalf("delete: %s", text)
	}
	_, text = callTool(t, cs, ToolListAlerts, nil)
	json.Unmarshal([]byte(text), &list)
	if slices.Contains(ids(), "u1") {
		t.Errorf("u1 listed after delete: %s", text)
	}
	for id, want := range map[string]string{"u1": "no such rule", "house.co2": "turn it off in the configuration"} {
		if res, text := callTool(t, cs, ToolDeleteAlert, map[string]any{"id": id}); !res.IsError || !strings.Contains(text, want) {
			t.Errorf("delete %s: %v %s, want an error saying %q", id, res.IsError, text, want)
		}
	}
	// The rule was kept in SQLite, and its deletion too.
	if rules, err := h.db.Rules(context.Background()); err != nil || len(rules) != 0 {
		t.Errorf("rules in the database: %v %v", rules, err)
	}
}

func with(base map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
		} else {
			out[kv[i].(string)] = kv[i+1]
		}
	}
	return out
}

func TestCreateAlertBadInput(t *testing.T) {
	h := newAlertHub(t)
	cs := h.inMemory(t, nil)
	for _, c := range []struct {
		name string
		args map[string]any
		want []string
	}{
		{"unknown zone", with(co2Rule, "zone", "Attic"), []string{"zone", "Attic", "Bedroom", "Indoor"}},
		{"unknown measurement", with(co2Rule, "measurement", "Radon"), []string{"measurement", "Radon", "CO2"}},
		{"unknown kind", with(co2Rule, "kind", "sideways"), []string{"kind", "sideways", "above"}},
		{"out of range", with(co2Rule, "threshold", 90000), []string{"threshold", "90000", "range"}},
		{"zero window", with(co2Rule, "kind", "rise", "threshold", 300, "window", "0s"), []string{"window", "more than 0"}},
		{"bad duration", with(co2Rule, "for", "soon"), []string{"for", `"soon"`, "15m"}},
		{"clear on the wrong side", with(co2Rule, "clear", 1300), []string{"clear", "wrong side"}},
		{"missing kind", with(co2Rule, "kind", nil), []string{"kind"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, text := callTool(t, cs, ToolCreateAlert, c.args)
			if !res.IsError {
				t.Fatalf("no error: %s", text)
			}
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("error %q does not say %q", text, w)
				}
			}
		})
	}
	for i := range alerts.MaxUserRules {
		if res, text := callTool(t, cs, ToolCreateAlert, with(co2Rule, "threshold", 1000+i)); res.IsError {
			t.Fatalf("rule %d: %s", i, text)
		}
	}
	res, text := callTool(t, cs, ToolCreateAlert, co2Rule)
	if !res.IsError || !strings.Contains(text, fmt.Sprintf("the limit is %d", alerts.MaxUserRules)) {
		t.Errorf("rule %d: %s", alerts.MaxUserRules+1, text)
	}
}

// elicitor answers elicitations with action and notes their messages.
type elicitor struct {
	mu       sync.Mutex
	action   string
	messages []string
}

func (e *elicitor) options() *sdk.ClientOptions {
	return &sdk.ClientOptions{ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.messages = append(e.messages, req.Params.Message)
		return &sdk.ElicitResult{Action: e.action, Content: map[string]any{}}, nil
	}}
}

// TestCreateAlertElicitation: a client that can elicit is asked to confirm
// the rule in words, on the session protocols (the go-sdk elicits) and on
// 2026-07-28 (an input request the client answers and calls again); the
// rule is kept only when the user accepts.
func TestCreateAlertElicitation(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28", ""} {
		for _, action := range []string{"accept", "decline", "cancel"} {
			t.Run(version+"/"+action, func(t *testing.T) {
				h := newAlertHub(t)
				e := &elicitor{action: action}
				var cs *sdk.ClientSession
				if version == "" {
					cs = h.inMemory(t, e.options())
				} else {
					cs = mcptest.ConnectAt(t, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp"}, e.options(), version)
				}
				res, text := callTool(t, cs, ToolCreateAlert, co2Rule)
				if res.IsError {
					t.Fatalf("create: %s", text)
				}
				if len(e.messages) != 1 || !strings.Contains(e.messages[0], co2Words) {
					t.Errorf("elicited %q, want one message with %q", e.messages, co2Words)
				}
				rules, _ := h.db.Rules(context.Background())
				if kept := len(rules) == 1; kept != (action == "accept") {
					t.Errorf("%s: %d rules kept; answer %s", action, len(rules), text)
				}
				if action != "accept" && !strings.Contains(text, "not created") {
					t.Errorf("answer to %s: %s", action, text)
				}
			})
		}
	}
}

// inMemory connects a client with opts to the server in memory.
func (h *alertHub) inMemory(t *testing.T, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	st, ct := sdk.NewInMemoryTransports()
	if _, err := h.srv.MCP().Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	return mcptest.ConnectWith(t, ct, opts)
}

// TestAlertSubscription: a client subscribed to the active alerts and to
// the history hears the moment an alert fires and when it clears, with a
// warning log message carrying the event's text; the resources then say
// what happened.
func TestAlertSubscription(t *testing.T) {
	for _, transport := range []string{"memory", "2025-11-25", "2026-07-28"} {
		t.Run(transport, func(t *testing.T) {
			h := newAlertHub(t)
			var box inbox
			var cs *sdk.ClientSession
			if transport == "memory" {
				cs = h.inMemory(t, box.options())
			} else {
				cs = mcptest.ConnectAt(t, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp"}, box.options(), transport)
			}
			ctx := context.Background()
			// 2026-07-28 has no logging/setLevel (SEP-2577 deprecates logging).
			logs := transport != "2026-07-28"
			if logs {
				if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "warning"}); err != nil {
					t.Fatal(err)
				}
			}
			for _, uri := range []string{URIAlertsActive, URIAlertsHistory} {
				if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: uri}); err != nil {
					t.Fatalf("subscribe %s: %v", uri, err)
				}
			}
			callTool(t, cs, ToolCreateAlert, with(co2Rule, "for", nil))
			// Subscriptions over 2026-07-28 take effect asynchronously: clear
			// and fire again until the client hears.
			testutil.WaitFor(t, "fired: updated and logged", func() bool {
				h.observe(t, "Bedroom", sensors.CO2, 900)
				h.observe(t, "Bedroom", sensors.CO2, 1350)
				time.Sleep(50 * time.Millisecond)
				u, _, got := box.snapshot()
				return slices.Contains(u, URIAlertsActive) && slices.Contains(u, URIAlertsHistory) &&
					(!logs || slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "warning: alert fired: Bedroom CO2 above 1200 ppm") }))
			})
			active := readText(t, cs, URIAlertsActive)
			if !strings.Contains(active, `"rule":"u1"`) || !strings.Contains(active, `"phase":"firing"`) || !strings.Contains(active, `"value":1350`) {
				t.Errorf("active: %s", active)
			}
			box.mu.Lock()
			box.updated, box.logs = nil, nil
			box.mu.Unlock()
			h.observe(t, "Bedroom", sensors.CO2, 900)
			testutil.WaitFor(t, "cleared: updated and logged", func() bool {
				u, _, got := box.snapshot()
				return slices.Contains(u, URIAlertsActive) &&
					(!logs || slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "warning: alert cleared: Bedroom CO2") }))
			})
			if active := readText(t, cs, URIAlertsActive); active != `{"active":[]}` {
				t.Errorf("active after clearing: %s", active)
			}
			hist := readText(t, cs, URIAlertsHistory+"?since=1h&limit=1")
			if !strings.Contains(hist, `"type":"cleared"`) || strings.Contains(hist, `"type":"fired"`) {
				t.Errorf("history, limit 1: %s", hist)
			}
		})
	}
}

func readText(t *testing.T, cs *sdk.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	return res.Contents[0].Text
}

func TestAlertHistoryBadQuery(t *testing.T) {
	h := newAlertHub(t)
	cs := h.inMemory(t, nil)
	for uri, want := range map[string]string{
		URIAlertsHistory + "?since=soon":  "since",
		URIAlertsHistory + "?limit=0":     "limit",
		URIAlertsHistory + "?limit=5000":  "want 1 to 1000",
		URIAlertsHistory + "?zone=Indoor": `unknown parameter "zone"`,
	} {
		_, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", uri, err, want)
		}
	}
}
