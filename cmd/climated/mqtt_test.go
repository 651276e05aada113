package main

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/publish"
	"github.com/climated/climated/sensors"
)

// TestServeWithMQTT runs the hub from a configuration file with an MQTT
// section against an in-process broker: a zigbee2mqtt device's payload
// becomes a zone, no demo house runs, and the hub's availability topic says
// online while it runs and offline once it stops.
func TestServeWithMQTT(t *testing.T) {
	broker, brokerAddr := testutil.LoopbackBroker(t)
	var mu sync.Mutex
	seen := map[string]string{}
	broker.Subscribe("#", 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
		mu.Lock()
		seen[pk.TopicName] = string(pk.Payload)
		mu.Unlock()
	})

	dir := t.TempDir()
	path := filepath.Join(dir, "climated.yaml")
	os.WriteFile(path, []byte(`listen: 127.0.0.1:0
database: `+filepath.Join(dir, "climated.db")+`
altitude: 120
mqtt:
  broker: tcp://`+brokerAddr+`
  prefix: climated/house
  subscriptions:
    - {topic: "zigbee2mqtt/+", format: zigbee2mqtt, devices: {bedroom_th: Bedroom}}
  publish: {enabled: true, home_assistant: true}
`), 0o600)
	cfg, err := parseServe([]string{"--config", path}, io.Discard, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan served, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), serveEnv{ready: func(h served) { ready <- h }})
	}()
	h := <-ready
	if strings.Join(h.Zones, ",") != "Bedroom" {
		t.Errorf("zones %v, want only the MQTT device's (no demo house)", h.Zones)
	}
	if !testutil.Eventually(func() bool {
		broker.Publish("zigbee2mqtt/bedroom_th", []byte(`{"temperature":19.4,"humidity":"58","pressure":1000.2,"battery":87,"linkquality":120}`), false, 0)
		return h.Hub.Snapshot().Climate["Bedroom"]["Temperature"] == 19.4
	}) {
		t.Fatalf("the device's reading never arrived: %v", h.Hub.Snapshot().Climate)
	}
	resp, err := http.Get("http://" + h.Addr.String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if v := metricValue(string(text), `climated_mqtt_messages_total{outcome="decoded"}`); v < 1 {
		t.Errorf("decoded MQTT messages = %v in /metrics", v)
	}
	if v := metricValue(string(text), `climated_mqtt_connected`); v != 1 {
		t.Errorf("climated_mqtt_connected = %v", v)
	}
	bed := h.Hub.Snapshot().Climate["Bedroom"]
	if bed["Humidity"] != 58.0 || bed["battery_percent"] != 87.0 {
		t.Errorf("Bedroom = %v", bed)
	}
	// The device's station pressure reaches sea level through the
	// configuration's altitude, as the hub's own chips' does.
	if want := math.Round(sensors.SeaLevelPressure(1000.2, 120)*10) / 10; bed["AbsolutePressure"] != 1000.2 || bed["Pressure"] != want {
		t.Errorf("Bedroom pressure: station %v, sea level %v, want 1000.2 and %v", bed["AbsolutePressure"], bed["Pressure"], want)
	}
	if !testutil.Eventually(func() bool {
		mu.Lock()
		defer mu.Unlock()
		return seen["climated/house/status"] == "online"
	}) {
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("availability never said online: %v", seen)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen["climated/house/status"] != "offline" {
		t.Errorf("availability at shutdown: %q", seen["climated/house/status"])
	}
}

// TestServeWithUnreachableBroker: a broker that does not answer does not
// stop the hub; /healthz names it.
func TestServeWithUnreachableBroker(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().String()
	ln.Close()
	cfg := testConfig(t)
	cfg.MQTT = &config.MQTT{Options: mqtt.Options{Broker: "tcp://" + closed}, Publish: publish.Options{Enabled: true}}
	if err := cfg.MQTT.Validate(); err != nil {
		t.Fatal(err)
	}
	h := startHub(t, cfg)
	var code int
	var body string
	if !testutil.Eventually(func() bool {
		code, _, body = testutil.Do(t, "http://"+h.Addr.String(), testutil.Request{Method: "GET", Path: "/healthz"})
		return code == 503 && strings.Contains(body, "mqtt") && strings.Contains(body, closed)
	}) {
		t.Fatalf("/healthz with the broker down: %d %s", code, body)
	}
	// The demo house (no subscriptions configured) still answers.
	if h.Hub.Snapshot().Climate["Indoor"] == nil {
		t.Error("the hub stopped serving its other sources")
	}
}
