package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
)

// budgetWindow is the steady stretch the log budget is counted over: with
// the demo house at one reading a second, an hour of the house at its
// default minute.
const budgetWindow = 60 * time.Second

// TestLogBudget runs the hub at INFO as a house runs it: the demo house,
// MQTT devices publishing, MCP clients subscribed and calling tools, new
// zones appearing while they are connected. Once started, the only lines a
// hub without faults may write are one per zone that is really new; at
// 4,000 lines an hour (the SDK's chatter, a warning per session per new
// zone) the journal was the SD card's main write load.
func TestLogBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute of steady running")
	}
	// A minute of mostly waiting: beside the other long tests (Node's
	// clients, the README's recipes), not after them.
	t.Parallel()
	broker, brokerAddr := testutil.LoopbackBroker(t)

	dir := t.TempDir()
	path := filepath.Join(dir, "climated.yaml")
	os.WriteFile(path, []byte(`listen: 127.0.0.1:0
database: `+filepath.Join(dir, "climated.db")+`
demo: {enabled: true, interval: 1s}
mqtt:
  broker: tcp://`+brokerAddr+`
  subscriptions:
    - {topic: "zigbee2mqtt/+", format: zigbee2mqtt, auto_zone: true}
`), 0o600)
	demoHistory(t, filepath.Join(dir, "climated.db")) // the minute counted is the steady one, not the start's fill
	cfg, err := parseServe([]string{"--config", path}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var logs testutil.Buffer
	log, _ := newLogger(&logs, "info", nil)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan served, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, log, serveEnv{ready: func(h served) { ready <- h }}) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	h := <-ready
	publish := func(device string, temp float64) {
		broker.Publish("zigbee2mqtt/"+device, fmt.Appendf(nil, `{"temperature":%.1f,"humidity":55,"battery":90,"linkquality":120}`, temp), false, 0)
	}
	testutil.WaitFor(t, "the first device's zone", func() bool {
		publish("hall_th", 20)
		return h.Hub.Snapshot().Climate["hall_th"] != nil
	})

	clientCtx, stopClients := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stopClients()
	connected := make(chan struct{}, 3)
	for i := range 3 {
		wg.Go(func() {
			c := sdk.NewClient(&sdk.Implementation{Name: fmt.Sprintf("budget-%d", i), Version: "1"}, nil)
			cs, err := c.Connect(clientCtx, &sdk.StreamableClientTransport{Endpoint: "http://" + h.Addr.String() + "/mcp"}, nil)
			if err != nil {
				t.Errorf("client %d: %v", i, err)
				connected <- struct{}{}
				return
			}
			defer cs.Close()
			for _, z := range []string{"Indoor", "Rain", "hall_th"} {
				if err := cs.Subscribe(clientCtx, &sdk.SubscribeParams{URI: "climate://zone/" + z}); err != nil {
					t.Errorf("client %d: subscribe %s: %v", i, z, err)
				}
			}
			connected <- struct{}{}
			for clientCtx.Err() == nil {
				if _, err := cs.CallTool(clientCtx, &sdk.CallToolParams{Name: "get_climate"}); err != nil && clientCtx.Err() == nil {
					t.Errorf("client %d: get_climate: %v", i, err)
				}
				select {
				case <-clientCtx.Done():
				case <-time.After(500 * time.Millisecond):
				}
			}
		})
	}
	for range 3 {
		<-connected
	}

	before := len(logs.String())
	start := time.Now()
	newZones := 0
	for i := 0; time.Since(start) < budgetWindow; i++ {
		publish("hall_th", 20+float64(i%10)/10)
		if i%100 == 50 { // a new device every 10 s, while the clients are connected
			newZones++
			publish(fmt.Sprintf("new_th_%d", newZones), 18)
		}
		time.Sleep(100 * time.Millisecond)
	}
	window := strings.TrimSpace(logs.String()[before:])
	var lines, zoneLines []string
	for l := range strings.SplitSeq(window, "\n") {
		switch {
		case l == "":
		case strings.Contains(l, `msg="mqtt: new zone from a device"`):
			zoneLines = append(zoneLines, l)
		default:
			lines = append(lines, l)
		}
	}
	if len(lines) > 0 {
		t.Errorf("%d log lines at INFO in %s of steady running (want none):\n%s", len(lines), budgetWindow, strings.Join(lines, "\n"))
	}
	if len(zoneLines) != newZones {
		t.Errorf("%d lines for %d new zones, want one each:\n%s", len(zoneLines), newZones, strings.Join(zoneLines, "\n"))
	}
}
