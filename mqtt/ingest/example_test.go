package ingest_test

import (
	"context"
	"log/slog"
	"os"
	"sync"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/ingest"
	"github.com/climated/climated/mqtt/publish"
	"github.com/climated/climated/sensors"
)

// store is the hub that cmd/climated opens (history/hub.Hub, above this
// package): the sink the ingest records into, and the structure the
// publisher publishes.
var store interface {
	sensors.Sink
	publish.Snapshots
}

// How cmd/climated wires the MQTT part: one client (package mqtt), the
// ingest as a source, the publisher (package publish) of the hub's own zones, all under one context.
func Example() {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	// From the mqtt: section of the YAML file (cmd/climated's config.MQTT,
	// which validates it as a whole).
	client, err := mqtt.NewClient(mqtt.Options{Broker: "tcp://127.0.0.1:1883", Prefix: "climated/house",
		PasswordEnv: "CLIMATED_MQTT_PASSWORD", Logger: log.With("component", "mqtt")})
	if err != nil {
		log.Error("config", "section", "mqtt", "err", err)
		return
	}
	in, err := ingest.New(client, []ingest.Mapping{
		{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", Devices: map[string]string{"bedroom_th": "Bedroom"}},
		{Topic: "rtl_433/+/events", Format: "rtl_433", AutoZone: true},
	}, &ingest.Options{Logger: log.With("source", "mqtt")})
	if err != nil {
		return
	}
	pub, err := publish.NewPublisher(client, store, &publish.Options{Enabled: true, HomeAssistant: true,
		Skip:    in.Feeds, // publish the hub's own zones only
		Version: "1.0.0", Logger: log.With("component", "mqtt-publish")})
	if err != nil {
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { client.Run(ctx) })
	wg.Go(func() { in.Run(ctx, store) })
	wg.Go(func() { pub.Run(ctx) })
	stop() // at shutdown
	wg.Wait()
}
