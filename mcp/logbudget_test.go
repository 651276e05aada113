package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
	"github.com/climated/climated/sensors"
)

// logBudget is how many lines a steady hub with no faults may log at INFO
// for all the traffic of TestLogBudgetAtInfo: sessions coming and going,
// subscriptions, hundreds of zone updates, new zones, client mistakes.
const logBudget = 3

func TestLogBudgetAtInfo(t *testing.T) {
	var out testutil.Buffer
	// As cmd builds it: one handler, a child per component.
	log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelInfo})).With("component", "mcp")
	store, err := hub.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := New(t.Context(), store, &Options{Logger: log, MaxSessions: 100, MaxClientSessions: 100})
	ts := httptest.NewServer(srv.Handler())
	// Cleanups run last first: the clients registered below close before.
	t.Cleanup(func() { srv.Close(); ts.Close(); store.Close(context.Background()) })
	ctx := context.Background()
	rec := func(zone string, v float64) {
		if err := store.Record(ctx, sensors.Batch{Readings: []sensors.Reading{reading(zone, sensors.Temperature, v, time.Now())}}); err != nil {
			t.Fatal(err)
		}
	}
	rec("Indoor", 20)

	// Subscribers on both HTTP transports, some without a standalone stream
	// (the SDK cannot deliver list_changed to those).
	var box inbox
	subscriber := mcptest.ConnectWith(t, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, box.options())
	clients := []*sdk.ClientSession{
		subscriber,
		mcptest.Connect(t, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true}),
		mcptest.Connect(t, &sdk.SSEClientTransport{Endpoint: ts.URL + "/sse"}),
	}
	for _, cs := range clients {
		if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: ZoneURI("Indoor")}); err != nil {
			t.Fatal(err)
		}
	}
	// Hundreds of updates, and a new zone with a new session for each.
	for i := range 300 {
		rec("Indoor", 20+float64(i)/100)
		if i%15 == 0 {
			// Older clients: sessions that stay (2026-07-28 has none).
			mcptest.ConnectAt(t, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: i%30 == 0}, nil, "2025-11-25")
			rec(fmt.Sprintf("Room %d", i), 18)
		}
	}
	// Client mistakes.
	for i := range 5 {
		mcptest.RawPost(t, ts.URL+"/mcp", nil, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{}}`, i))
		mcptest.RawPost(t, ts.URL+"/mcp", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
		mcptest.RawPost(t, ts.URL+"/mcp", nil, `{"jsonrpc":"2.0","id":1,`)
		mcptest.RawPost(t, ts.URL+"/mcp", mcptest.StreamableSession(t, ts.URL), `{"jsonrpc":"2.0","id":2,"method":"no/such","params":{}}`)
	}
	rec("Indoor", 25.5)
	testutil.WaitFor(t, "the last update delivered", func() bool {
		u, _, _ := box.snapshot()
		return len(u) > 0 && srv.Sessions() > 20
	})
	time.Sleep(50 * time.Millisecond) // let the watcher finish its round
	for _, cs := range clients {
		cs.Close()
	}

	lines := out.Lines()
	t.Logf("%d lines at INFO:\n%s", len(lines), strings.Join(lines, "\n"))
	if len(lines) > logBudget {
		t.Errorf("%d lines at INFO, budget %d:\n%s", len(lines), logBudget, strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if strings.Count(l, "component=") > 1 {
			t.Errorf("component given twice: %s", l)
		}
	}
}
