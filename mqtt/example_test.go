package mqtt_test

import (
	"context"
	"log/slog"
	"os"
	"sync"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
)

// store is the hub that cmd/climated opens (history/hub.Hub, above this
// package): the sink the ingest records into, and the structure the
// publisher publishes.
var store interface {
	sensors.Sink
	mqtt.Snapshots
}

// How cmd/climated wires the MQTT part: one client, the ingest as a
// source, the publisher of the hub's own zones, all under one context.
func Example() {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	cfg := mqtt.Config{ // decoded from the mqtt: section of the YAML file
		Options: mqtt.Options{Broker: "tcp://127.0.0.1:1883", Prefix: "climated/house", PasswordEnv: "CLIMATED_MQTT_PASSWORD"},
		Subscriptions: []mqtt.Mapping{
			{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", Devices: map[string]string{"bedroom_th": "Bedroom"}},
			{Topic: "rtl_433/+/events", Format: "rtl_433", AutoZone: true},
		},
		Publish: mqtt.PublishOptions{Enabled: true, HomeAssistant: true},
	}
	if err := cfg.Validate(); err != nil {
		log.Error("config", "section", "mqtt", "err", err)
		return
	}
	cfg.Options.Logger = log.With("component", "mqtt")
	client, err := mqtt.NewClient(cfg.Options)
	if err != nil {
		return
	}
	cfg.Ingest.Logger = log.With("source", "mqtt")
	ingest, err := mqtt.NewIngest(client, cfg.Subscriptions, &cfg.Ingest)
	if err != nil {
		return
	}
	cfg.Publish.Skip = ingest.Feeds // publish the hub's own zones only
	cfg.Publish.Version = "1.0.0"
	cfg.Publish.Logger = log.With("component", "mqtt-publish")
	pub, err := mqtt.NewPublisher(client, store, &cfg.Publish)
	if err != nil {
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { client.Run(ctx) })
	wg.Go(func() { ingest.Run(ctx, store) })
	wg.Go(func() { pub.Run(ctx) })
	stop() // at shutdown
	wg.Wait()
}
