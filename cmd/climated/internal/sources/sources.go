package sources

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
	"github.com/climated/climated/mqtt/ingest"
	"github.com/climated/climated/mqtt/publish"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
	"github.com/climated/climated/sensors/hw"
	"github.com/climated/climated/sensors/raingauge"
	"github.com/climated/climated/sensors/station"
)

// Set is what feeds the hub.
type Set struct {
	Sources   []sensors.Source
	Zones     []string
	House     *demo.House // nil unless the demo house runs
	Simulated bool
	// Runners are the other long-running parts (the MQTT client and
	// publishers): they start with the sources and stop with them.
	Runners []Runner
	Health  []func() error
	// MQTTConnected reports the broker connection and MQTTStats the
	// ingest's counters; nil without MQTT (or without subscriptions).
	MQTTConnected func() bool
	MQTTStats     func() ingest.Stats
	// MQTTPublish is the client and its options when the hub publishes
	// (the alerts are published beside the zones); nil otherwise.
	MQTTPublish *MQTTPublish
	// Station takes a weather station's uploads (its Handler is served
	// at station.Path); nil without a station: section. It is the one
	// of Pushed.
	Station *station.Source
	// Pushed are the sources whose readings are brought to the hub: they
	// record from the start, and stop with the set.
	Pushed []sensors.Pushed
	// Mixed are the zones the demo house shares with real sources, when
	// it runs beside them (demo: enabled: true).
	Mixed []string
}

// MQTTPublish is the MQTT client the hub publishes on, and how.
type MQTTPublish struct {
	Client *mqtt.Client
	Opts   publish.Options
}

// Runner is a long-running part that starts and stops with the sources.
type Runner struct {
	Name string
	Run  func(context.Context) error
}

// Seams lets tests put fakes where the hardware would be.
type Seams struct {
	OpenBus hw.Opener
	OpenPin raingauge.PinOpener
}

// Deps are what sources are built with.
type Deps struct {
	Log   *slog.Logger
	Seams Seams
	// Hub is the hub the sources feed: MQTT asks it what it has recorded
	// and publishes its zones; nil in tests of the configuration alone.
	Hub     *hub.Hub
	Version string // the hub's version, in what MQTT publishes
}

// Build turns the configuration into sources. When it names no
// source at all (no sensors, rain gauge or MQTT subscriptions, as with no
// file), the chips a scan of the default I²C bus finds become the main
// zone's sensors; when there is no bus or nothing answers, the demo house
// runs, and the log says why.
func Build(ctx context.Context, cfg config.Config, d Deps) (*Set, error) {
	log, sm := d.Log, d.Seams
	set := &Set{}
	hwCfg := cfg.HW
	if !cfg.NamesSource() {
		hwCfg = autodetect(ctx, hwCfg, log, sm.OpenBus)
	}
	if len(hwCfg.Sensors) > 0 {
		src, err := hw.New(hwCfg, &hw.Options{Logger: log.With("source", "i2c"), Open: sm.OpenBus})
		if err != nil {
			return nil, fmt.Errorf("sensors: %w", err)
		}
		set.add(src, src.Zones())
	}
	if cfg.RainGauge != nil {
		g, err := raingauge.New(*cfg.RainGauge, &raingauge.Options{Logger: log.With("source", "rain-gauge"), Open: sm.OpenPin})
		if err != nil {
			return nil, fmt.Errorf("rain_gauge: %w", err)
		}
		set.add(g, []string{cfg.RainGauge.WithDefaults().Zone})
	}
	if cfg.Station != nil {
		sc := *cfg.Station
		sc.Location = mustLocation(cfg) // the counters' periods begin at the house's midnight
		addStation(set, sc, d)
	}
	if cfg.MQTT != nil {
		m := *cfg.MQTT
		if m.Options.SessionFile == "" {
			// Beside the database: the journal in it speaks of what the
			// database holds, and a hub is its database.
			m.Options.SessionFile = cfg.Database + ".mqtt"
		}
		if err := addMQTT(set, m, cfg.HW.Altitude, time.Duration(cfg.CommitInterval), d); err != nil {
			return nil, err
		}
	}
	addDemo(set, cfg, log)
	return set, nil
}

// addStation adds the weather station's source, recording into the hub.
// It restores each rain gauge from what the history committed, the first
// time the gauge counts: what the station it replaces on a reload
// recorded (closed, with its last upload done, before this one takes
// any) is committed first, so that its rain is not counted again from an
// older state.
func addStation(set *Set, cfg station.Config, d Deps) {
	var state station.StateReader
	var sink sensors.Sink
	if d.Hub != nil {
		sink, state = d.Hub, stationState(d.Hub)
	}
	set.Station = station.NewSource(cfg, state, sink, d.Log.With("source", "station"))
	set.Pushed = append(set.Pushed, set.Station)
	set.addZones(set.Station.Zones())
}

// stationState reads a rain gauge's state as h holds it, what was
// recorded before committed first. On a full disk (sensors.ErrDiskFull)
// the hub holds what it could not write in memory, the gauge's latest
// state among it: that one is restored, not the older one committed,
// which would count the rain since a second time.
func stationState(h *hub.Hub) station.StateReader {
	return func(ctx context.Context, key string) (string, bool, error) {
		if err := h.Flush(ctx); err != nil && !errors.Is(err, sensors.ErrDiskFull) {
			return "", false, fmt.Errorf("commit the history before reading the rain gauge's state: %w", err)
		}
		return h.LatestState(ctx, key)
	}
}

// addDemo adds the demo house as demo: enabled says: unset, when no other
// source runs; true, always; false, never (and the log says the hub has
// no zone when nothing else runs).
func addDemo(set *Set, cfg config.Config, log *slog.Logger) {
	on := cfg.Demo.Enabled
	switch {
	case on != nil && !*on:
		if set.Count() == 0 {
			log.Warn("no sensors configured or found, and demo: enabled: false: the hub has no zone until sensors:, rain_gauge: or mqtt: give it some (climated scan lists the chips on the bus)")
		}
		return
	case on == nil && set.Count() > 0:
		return
	case set.Count() == 0:
		log.Info("no sensors configured or found: running the demo house (simulated data)")
	}
	set.House = demo.New(&demo.Options{Seed: cfg.Demo.Seed, Interval: cfg.Demo.Interval, Location: mustLocation(cfg),
		Logger: log.With("source", "demo")})
	for _, z := range set.House.Zones() {
		if slices.Contains(set.Zones, z) {
			set.Mixed = append(set.Mixed, z)
		}
	}
	set.add(set.House, set.House.Zones())
	set.Simulated = true
}

// addMQTT wires the broker connection, the ingest of devices' readings
// and, when enabled, the publisher of the hub's own zones.
func addMQTT(set *Set, cfg config.MQTT, altitude float64, commitWait time.Duration, d Deps) error {
	log, store := d.Log, d.Hub
	cfg.Options.Logger = log.With("component", "mqtt")
	client, err := mqtt.NewClient(cfg.Options)
	if err != nil {
		return fmt.Errorf("mqtt: %w", err)
	}
	set.Runners = append(set.Runners, Runner{Name: "mqtt client", Run: client.Run})
	set.MQTTConnected = client.Connected
	set.Health = append(set.Health, func() error {
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
		ingest, err := ingest.New(client, cfg.Subscriptions, &cfg.Ingest)
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
		set.MQTTStats = ingest.Stats
	}
	if cfg.Publish.Enabled {
		cfg.Publish.Version = d.Version
		cfg.Publish.Logger = log.With("component", "mqtt-publish")
		pub, err := publish.NewPublisher(client, store, &cfg.Publish)
		if err != nil {
			return fmt.Errorf("mqtt: %w", err)
		}
		set.Runners = append(set.Runners, Runner{Name: "mqtt publisher", Run: pub.Run})
		set.MQTTPublish = &MQTTPublish{Client: client, Opts: cfg.Publish}
	}
	return nil
}

func (s *Set) add(src sensors.Source, zones []string) {
	s.Sources = append(s.Sources, src)
	s.addZones(zones)
}

// Count is how many sources s has, pulled and pushed.
func (s *Set) Count() int { return len(s.Sources) + len(s.Pushed) }

// addZones adds the zones s does not list yet.
func (s *Set) addZones(zones []string) {
	for _, z := range zones {
		if !slices.Contains(s.Zones, z) {
			s.Zones = append(s.Zones, z)
		}
	}
}

// autodetect scans the default bus and configures what answers in the main
// zone.
func autodetect(ctx context.Context, cfg hw.Config, log *slog.Logger, open hw.Opener) hw.Config {
	bus := cfg.WithDefaults().Bus
	found, err := hw.ScanBus(ctx, open, bus)
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
