package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
	"github.com/climated/climated/sensors/hw"
	"github.com/climated/climated/sensors/raingauge"
)

// sourceSet is what feeds the hub.
type sourceSet struct {
	sources   []sensors.Source
	zones     []string
	house     *demo.House // nil unless the demo house runs
	simulated bool
	// runners are the other long-running parts (the MQTT client and
	// publisher): they start with the sources and stop with them.
	runners []runner
	health  []func() error
	// mqttConnected reports the broker connection and mqttStats the
	// ingest's counters; nil without MQTT (or without subscriptions).
	mqttConnected func() bool
	mqttStats     func() mqtt.Stats
	// mqttPublish is the client and its options when the hub publishes
	// (the alerts are published beside the zones); nil otherwise.
	mqttPublish *mqttPublish
}

type mqttPublish struct {
	client *mqtt.Client
	opts   mqtt.PublishOptions
}

type runner struct {
	name string
	run  func(context.Context) error
}

// seams lets tests put fakes where the hardware would be.
type seams struct {
	openBus hw.Opener
	openPin raingauge.PinOpener
}

// buildSources turns the configuration into sources. When it names no
// source at all (no sensors, rain gauge or MQTT subscriptions, as with no
// file), the chips a scan of the default I²C bus finds become the main
// zone's sensors; when there is no bus or nothing answers, the demo house
// runs, and the log says why.
func buildSources(ctx context.Context, cfg config.Config, log *slog.Logger, sm seams, store *hub.Hub) (*sourceSet, error) {
	set := &sourceSet{}
	hwCfg := cfg.HW
	if len(hwCfg.Sensors) == 0 && cfg.RainGauge == nil && (cfg.MQTT == nil || len(cfg.MQTT.Subscriptions) == 0) {
		hwCfg = autodetect(ctx, hwCfg, log, sm.openBus)
	}
	if len(hwCfg.Sensors) > 0 {
		src, err := hw.New(hwCfg, &hw.Options{Logger: log.With("source", "i2c"), Open: sm.openBus})
		if err != nil {
			return nil, fmt.Errorf("sensors: %w", err)
		}
		set.add(src, src.Zones())
	}
	if cfg.RainGauge != nil {
		g, err := raingauge.New(*cfg.RainGauge, &raingauge.Options{Logger: log.With("source", "rain-gauge"), Open: sm.openPin})
		if err != nil {
			return nil, fmt.Errorf("rain_gauge: %w", err)
		}
		set.add(g, []string{cfg.RainGauge.WithDefaults().Zone})
	}
	if cfg.MQTT != nil {
		m := *cfg.MQTT
		if m.Options.SessionFile == "" {
			// Beside the database: the journal in it speaks of what the
			// database holds, and a hub is its database.
			m.Options.SessionFile = cfg.Database + ".mqtt"
		}
		if err := addMQTT(set, m, cfg.HW.Altitude, time.Duration(cfg.CommitInterval), log, store); err != nil {
			return nil, err
		}
	}
	addDemo(set, cfg, log)
	return set, nil
}

// addDemo adds the demo house as demo: enabled says: unset, when no other
// source runs; true, always; false, never (and the log says the hub has
// no zone when nothing else runs).
func addDemo(set *sourceSet, cfg config.Config, log *slog.Logger) {
	on := cfg.Demo.Enabled
	switch {
	case on != nil && !*on:
		if len(set.sources) == 0 {
			log.Warn("no sensors configured or found, and demo: enabled: false: the hub has no zone until sensors:, rain_gauge: or mqtt: give it some (climated scan lists the chips on the bus)")
		}
		return
	case on == nil && len(set.sources) > 0:
		return
	case len(set.sources) == 0:
		log.Info("no sensors configured or found: running the demo house (simulated data)")
	}
	set.house = demo.New(&demo.Options{Seed: cfg.Demo.Seed, Interval: cfg.Demo.Interval, Location: mustLocation(cfg),
		Logger: log.With("source", "demo")})
	set.add(set.house, set.house.Zones())
	set.simulated = true
}

// addMQTT wires the broker connection, the ingest of devices' readings
// and, when enabled, the publisher of the hub's own zones.
func addMQTT(set *sourceSet, cfg mqtt.Config, altitude float64, commitWait time.Duration, log *slog.Logger, store *hub.Hub) error {
	cfg.Options.Logger = log.With("component", "mqtt")
	client, err := mqtt.NewClient(cfg.Options)
	if err != nil {
		return fmt.Errorf("mqtt: %w", err)
	}
	set.runners = append(set.runners, runner{"mqtt client", client.Run})
	set.mqttConnected = client.Connected
	set.health = append(set.health, func() error {
		if err := client.Health(); err != nil {
			return fmt.Errorf("mqtt: %w", err)
		}
		return nil
	})
	var zones []string
	if len(cfg.Subscriptions) > 0 {
		cfg.Ingest.Logger = log.With("source", "mqtt")
		cfg.Ingest.CommitWait = commitWait // acknowledged once committed, as often as the rest
		cfg.Ingest.Altitude = altitude     // devices' station pressure to sea level, as for the hub's own chips
		cfg.Ingest.KnownZone = func(z string) bool { return store != nil && store.Snapshot().Climate[z] != nil }
		if store != nil {
			cfg.Ingest.Recorded = store.Points // other hubs' rain this hub has already
			cfg.Ingest.Marked = store.Marked   // batches committed before a crash
		}
		ingest, err := mqtt.NewIngest(client, cfg.Subscriptions, &cfg.Ingest)
		if err != nil {
			return fmt.Errorf("mqtt: %w", err)
		}
		for _, m := range cfg.Subscriptions {
			if m.Zone != "" {
				zones = append(zones, m.Zone)
			}
			for _, z := range m.Devices {
				zones = append(zones, z)
			}
		}
		slices.Sort(zones)
		set.add(ingest, slices.Compact(zones))
		cfg.Publish.Skip = ingest.PublishSkip(cfg.Publish.DeviceZones) // not other hubs' zones; devices' only if asked
		set.mqttStats = ingest.Stats
	}
	if cfg.Publish.Enabled {
		cfg.Publish.Version = buildVersion()
		cfg.Publish.Logger = log.With("component", "mqtt-publish")
		pub, err := mqtt.NewPublisher(client, store, &cfg.Publish)
		if err != nil {
			return fmt.Errorf("mqtt: %w", err)
		}
		set.runners = append(set.runners, runner{"mqtt publisher", pub.Run})
		set.mqttPublish = &mqttPublish{client, cfg.Publish}
	}
	return nil
}

func (s *sourceSet) add(src sensors.Source, zones []string) {
	s.sources = append(s.sources, src)
	for _, z := range zones {
		if !slices.Contains(s.zones, z) {
			s.zones = append(s.zones, z)
		}
	}
}

// autodetect scans the default bus and configures what answers in the main
// zone.
func autodetect(ctx context.Context, cfg hw.Config, log *slog.Logger, open hw.Opener) hw.Config {
	bus := cfg.WithDefaults().Bus
	found, err := scanBus(ctx, open, bus)
	if errors.Is(err, hw.ErrNoBus) {
		log.Info("no I²C bus to scan", "bus", bus)
		return cfg
	}
	if err != nil {
		log.Warn("cannot scan the I²C bus", "bus", bus, "err", err)
		return cfg
	}
	if len(found) == 0 {
		log.Info("no known chip answers on the I²C bus", "bus", bus)
		return cfg
	}
	detected := hw.ScanConfig(found, hw.DefaultZone)
	for _, f := range found {
		log.Info("found a sensor; it reads into the main zone (climated scan prints configuration lines)", "chip", f.String(), "zone", hw.DefaultZone)
	}
	detected.Altitude, detected.WiFi = cfg.Altitude, cfg.WiFi
	return detected
}

func mustLocation(cfg config.Config) *time.Location {
	loc, _ := cfg.Location() // validated at start-up
	return loc
}
