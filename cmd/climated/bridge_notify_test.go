package main

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/sensors"
)

// TestBridgeForwardsNotifications: what the hub sends outside an answer
// reaches a go-sdk client through the real bridge process: a new zone
// changes the resource list, and that zone, silent for 20 minutes, is
// logged as stale at the level the client set.
func TestBridgeForwardsNotifications(t *testing.T) {
	h := startHub(t, demoConfig(t))
	listChanged := make(chan struct{}, 10)
	logged := make(chan *sdk.LoggingMessageParams, 10)
	opts := &sdk.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { listChanged <- struct{}{} },
		LoggingMessageHandler:      func(_ context.Context, r *sdk.LoggingMessageRequest) { logged <- r.Params },
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, stderr, err := bridgeClient(t, ctx, "http://"+h.Addr.String()+"/mcp", nil, opts)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	// The event stream opens once the session is initialized: wait until
	// the bridge says so, then make the hub speak.
	for !strings.Contains(stderr.String(), "receiving the hub's notifications") {
		select {
		case <-ctx.Done():
			t.Fatalf("the bridge never opened the event stream:\n%s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	attic := sensors.Reading{Zone: "Attic", Measurement: sensors.Temperature, Value: 12.5, Time: time.Now().Add(-20 * time.Minute), Source: "test/attic"}
	if err := h.Hub.Record(ctx, sensors.Batch{Readings: []sensors.Reading{attic}}); err != nil {
		t.Fatal(err)
	}
	gotList, gotLog := false, false
	for !gotList || !gotLog {
		select {
		case <-listChanged:
			gotList = true
		case p := <-logged:
			if m, _ := p.Data.(map[string]any); m != nil && strings.Contains(m["message"].(string), "zone Attic is stale") {
				gotLog = true
			}
		case <-ctx.Done():
			t.Fatalf("through the bridge: list_changed %v, stale-zone log %v\n%s", gotList, gotLog, stderr.String())
		}
	}
	res, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range res.Resources {
		found = found || r.URI == "climate://zone/Attic"
	}
	if !found {
		t.Errorf("the new zone is not listed through the bridge")
	}
}
