package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
)

// An alert, end to end through a running hub and a real mosquitto: a device's CO2 reading over
// the configured house rule reaches a subscribed assistant (resources
// updated), the phone's webhook, MQTT (the event and Home Assistant's
// binary_sensor) and the alerts command.
func TestServeAlertsEndToEnd(t *testing.T) {
	broker := startMosquitto(t) // Debian's, a process of its own
	var mu sync.Mutex
	seen := map[string]string{}
	observer := testutil.MQTTClient(t, broker, "alerts-observer")
	observer.Subscribe("#", 1, func(_ paho.Client, m paho.Message) {
		mu.Lock()
		seen[m.Topic()] = string(m.Payload())
		mu.Unlock()
	}).WaitTimeout(5 * time.Second)
	device := testutil.MQTTClient(t, broker, "bedroom-co2")
	hooked := make(chan string, 8)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		hooked <- string(body)
	}))
	defer hook.Close()

	dir := t.TempDir()
	path := filepath.Join(dir, "climated.yaml")
	os.WriteFile(path, []byte(`listen: 127.0.0.1:0
database: `+filepath.Join(dir, "climated.db")+`
mqtt:
  broker: `+broker+`
  prefix: climated/house
  subscriptions:
    - {topic: "zigbee2mqtt/+", format: zigbee2mqtt, devices: {bedroom_co2: Bedroom}}
  publish: {enabled: true, home_assistant: true}
alerts:
  house:
    co2: {threshold: 1000, for: 0s}
  webhook: {url: "`+hook.URL+`/", topic: house}
`), 0o600)
	cfg, err := parseServe([]string{"--config", path}, io.Discard, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	h, stop := runHub(t, cfg)
	ctx := t.Context()

	updated := make(chan string, 8)
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *sdk.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI },
	})
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + h.Addr.String() + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: "climate://alerts/active"}); err != nil {
		t.Fatal(err)
	}

	// Published again until the hub has it: its subscription may not be
	// in place yet.
	if !testutil.Eventually(func() bool {
		device.Publish("zigbee2mqtt/bedroom_co2", 0, false, `{"co2":1350,"temperature":21.5,"humidity":48}`).WaitTimeout(time.Second)
		return h.Hub.Snapshot().Climate["Bedroom"]["CO2"] == 1350.0
	}) {
		t.Fatalf("the device's reading never arrived: %v", h.Hub.Snapshot().Climate)
	}
	select {
	case uri := <-updated:
		if uri != "climate://alerts/active" {
			t.Errorf("updated %q", uri)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no resources/updated for the active alerts within 15 s")
	}
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "climate://alerts/active"})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Contents[0].Text; !strings.Contains(text, "Bedroom") || !strings.Contains(text, "house.co2") {
		t.Errorf("active alerts %s: want Bedroom's house.co2", text)
	}
	select {
	case body := <-hooked:
		if !strings.Contains(body, `"topic":"house"`) || !strings.Contains(body, "Bedroom") {
			t.Errorf("webhook body %s: want ntfy's JSON for the house topic naming Bedroom", body)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the webhook got nothing within 15 s")
	}
	// The dashboard shows it above the cards.
	resp, err := http.Get("http://" + h.Addr.String() + "/dash/state")
	if err != nil {
		t.Fatal(err)
	}
	state, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(state), `"alerts":[{"zone":"Bedroom","rule":"house.co2","text":"stuffy air`) {
		t.Errorf("/dash/state %.300s…: want the Bedroom's house.co2 alert in words", state)
	}
	// and marks the values past the rules' lines with the rules' own thresholds.
	if !strings.Contains(string(state), `{"zone":"Bedroom","key":"CO2","above":true,"value":1000,"rule":"house.co2","text":"stuffy air`) {
		t.Errorf("/dash/state %s: want the line of the configured house CO2 rule (1000 ppm) for Bedroom among the thresholds", state)
	}
	waitTopic := func(topic, want string) {
		t.Helper()
		if !testutil.Eventually(func() bool {
			mu.Lock()
			defer mu.Unlock()
			got, ok := seen[topic]
			return ok && strings.Contains(got, want)
		}) {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("no %q on %s within %s; topics: %v", want, topic, testutil.Patience, keys(seen))
		}
	}
	waitTopic("climated/house/alerts/house_co2/bedroom/event", "Bedroom")
	waitTopic("climated/house/alerts/house_co2/bedroom/state", "ON")
	// Home Assistant's binary_sensor, beside the zone publisher, which
	// watches the same birth topic (both subscribed it: refused before).
	waitTopic("homeassistant/binary_sensor/climated_house/bedroom_alert_house_co2/config", `"device_class":"problem"`)
	stop()
	var out strings.Builder
	if err := run(context.Background(), []string{"alerts", "--db", cfg.Database}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Bedroom") || !strings.Contains(out.String(), "threshold") && !strings.Contains(out.String(), "1000 ppm") {
		t.Errorf("climated alerts after the run:\n%s\nwant Bedroom's alert and the configured threshold", out.String())
	}
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
