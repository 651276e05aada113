package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync/atomic"
	"time"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors/field"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

// Defaults for Options fields left zero.
const (
	DefaultPublishInterval = time.Second
	DefaultDiscoveryPrefix = "homeassistant"
)

// Snapshots is what the publisher needs of the hub: the get_climate
// structure as it stands, with the Unix time of each measurement's latest
// reading (climate.Snapshot.Times), published as the state's "times" so
// that another hub stamps every value with its own time rather than the
// zone's When. hub.Hub (history/hub) provides it.
type Snapshots interface {
	Snapshot() *climate.Snapshot
	// Points returns the live window's points of zone's m after from
	// (Unix seconds), for the amount logs (amounts.go).
	Points(zone string, m sensors.Measurement, from int64) []climate.Point
}

// keyTimes is the state's key for the measurements' own times; hubs that
// do not know it ignore it and use When.
const keyTimes = "times"

// keySimulated is the state's key for the measurements whose values are
// simulated (the demo house's), so that a hub that follows this one keeps
// them simulated (decode.KeySimulated).
const keySimulated = decode.KeySimulated

// Options configure the Publisher.
type Options struct {
	// Enabled publishes the zones' states under <prefix>/<zone>/state, for
	// Home Assistant and for other climated hubs (format climated).
	Enabled bool `yaml:"enabled"`
	// HomeAssistant announces every zone as a device with one sensor per
	// key through MQTT discovery (and publishes the states, which the
	// sensors read).
	HomeAssistant bool `yaml:"home_assistant"`
	// DiscoveryPrefix is Home Assistant's discovery prefix.
	DiscoveryPrefix string `yaml:"discovery_prefix"`
	// Interval is how often the structure is checked for changes.
	Interval time.Duration `yaml:"interval"`
	// Zones, if not empty, are the only zones published.
	Zones []string `yaml:"zones"`
	// DeviceZones publishes the zones fed by MQTT devices too (never those
	// of other hubs), so that Home Assistant also gets what only the hub
	// derives: daily extremes, trends, rain sums. See Ingest.PublishSkip.
	DeviceZones bool `yaml:"device_zones"`

	// Skip, if not nil, leaves out zones it returns true for; give it the
	// ingest's Feeds so that devices other hubs and Home Assistant already
	// see over MQTT are not echoed.
	Skip func(zone string) bool `yaml:"-"`
	// Version is climated's, announced to Home Assistant.
	Version string       `yaml:"-"`
	Logger  *slog.Logger `yaml:"-"`
}

// Validate reports what is wrong with o, naming the field.
func (o *Options) Validate() error {
	if o.Interval < 0 {
		return field.Errorf("interval", "interval %s: must not be negative", o.Interval)
	}
	if o.DiscoveryPrefix != "" {
		if err := mqtt.ValidTopic(o.DiscoveryPrefix); err != nil {
			return field.Errorf("discovery_prefix", "discovery_prefix %q: %w", o.DiscoveryPrefix, err)
		}
	}
	for i, z := range o.Zones {
		if err := sensors.CheckZone(z); err != nil {
			return field.Errorf(fmt.Sprintf("zones[%d]", i), "zones[%d] %q: %w", i, z, err)
		}
	}
	return nil
}

// Publisher publishes the hub's zones: a retained state topic per zone,
// <prefix>/<zone slug>/state, whose payload is the zone's get_climate
// object plus "zone", its name; and, optionally, Home Assistant discovery
// for each key (announced again when Home Assistant says online on
// <discovery prefix>/status, removed when the zone goes). After every
// reconnect everything is published again, in case the broker lost its
// retained messages.
type Publisher struct {
	client  *mqtt.Client
	climate Snapshots
	opts    Options
	log     *slog.Logger
	node    string // Home Assistant node id: the prefix as a slug
	only    map[string]bool
	running atomic.Bool
	birth   atomic.Bool // Home Assistant came online

	session  uint64
	lastJSON []byte
	zones    map[string]*pubZone
}

// pubZone is what has been published of one zone.
type pubZone struct {
	slug      string
	state     []byte
	announced map[string]bool
}

// NewPublisher prepares a publisher of the snapshots of hub on c.
func NewPublisher(c *mqtt.Client, hub Snapshots, opts *Options) (*Publisher, error) {
	p := &Publisher{client: c, climate: hub, zones: map[string]*pubZone{}}
	if opts != nil {
		p.opts = *opts
	}
	if err := p.opts.Validate(); err != nil {
		return nil, err
	}
	if p.opts.Interval == 0 {
		p.opts.Interval = DefaultPublishInterval
	}
	if p.opts.DiscoveryPrefix == "" {
		p.opts.DiscoveryPrefix = DefaultDiscoveryPrefix
	}
	p.log = p.opts.Logger
	if p.log == nil {
		p.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if len(p.opts.Zones) > 0 {
		p.only = map[string]bool{}
		for _, z := range p.opts.Zones {
			p.only[z] = true
		}
	}
	p.node = slug(c.Prefix())
	return p, nil
}

func (p *Publisher) stateTopic(zs string) string { return p.client.Prefix() + "/" + zs + "/state" }

// Run publishes until ctx ends; it returns nil then.
func (p *Publisher) Run(ctx context.Context) error {
	if !p.running.CompareAndSwap(false, true) {
		return errors.New("mqtt publisher: Run called twice")
	}
	if p.opts.HomeAssistant {
		stop, err := watchBirth(p.client, p.opts.DiscoveryPrefix, &p.birth)
		if err != nil {
			return fmt.Errorf("mqtt publisher: %w", err)
		}
		defer stop()
	}
	tick := time.NewTicker(p.opts.Interval)
	defer tick.Stop()
	for {
		if err := p.publish(ctx); err != nil && ctx.Err() == nil {
			p.log.Debug("mqtt: publish incomplete, retrying", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// publish brings the broker up to date with the structure. On an error it
// stops; what was not published is tried again next time.
func (p *Publisher) publish(ctx context.Context) error {
	if !p.client.Ready() {
		return mqtt.ErrNotConnected
	}
	if s := p.client.Sessions(); s != p.session {
		p.session = s
		p.resend(true)
	}
	if p.birth.Swap(false) {
		p.resend(false)
	}
	sn := p.climate.Snapshot()
	if bytes.Equal(sn.JSON, p.lastJSON) {
		return nil
	}
	structure, times, sims := sn.Climate, sn.Times, sn.Simulated
	names := make([]string, 0, len(structure))
	for zone := range structure {
		if p.publishes(zone) {
			names = append(names, zone)
		}
	}
	sort.Strings(names)
	for _, zone := range names {
		if err := p.publishZone(ctx, zone, structure[zone], times[zone], sims[zone]); err != nil {
			return err
		}
	}
	for zone := range p.zones {
		if _, ok := structure[zone]; !ok || !p.publishes(zone) {
			if err := p.remove(ctx, zone); err != nil {
				return err
			}
		}
	}
	p.lastJSON = sn.JSON
	return nil
}

func (p *Publisher) publishes(zone string) bool {
	return (p.only == nil || p.only[zone]) && (p.opts.Skip == nil || !p.opts.Skip(zone))
}

// resend makes the next publish send discovery again and, with states,
// the states too.
func (p *Publisher) resend(states bool) {
	for _, z := range p.zones {
		z.announced = map[string]bool{}
		if states {
			z.state = nil
		}
	}
	p.lastJSON = nil
}

func (p *Publisher) publishZone(ctx context.Context, zone string, keys map[string]any, times map[string]int64, sims []string) error {
	z := p.zones[zone]
	if z == nil {
		z = &pubZone{slug: p.slugFor(zone), announced: map[string]bool{}}
		p.zones[zone] = z
	}
	if p.opts.HomeAssistant {
		if err := p.announce(ctx, zone, z, keys); err != nil {
			return err
		}
	}
	if !p.opts.Enabled && !p.opts.HomeAssistant {
		return nil
	}
	payload, err := json.Marshal(p.state(zone, keys, times, sims))
	if err != nil {
		return fmt.Errorf("encode zone %s: %w", zone, err)
	}
	if bytes.Equal(payload, z.state) {
		return nil
	}
	if err := p.send(ctx, p.stateTopic(z.slug), payload); err != nil {
		return err
	}
	z.state = payload
	return nil
}

// announce sends Home Assistant discovery for the keys of zone not
// announced yet, in key order.
func (p *Publisher) announce(ctx context.Context, zone string, z *pubZone, keys map[string]any) error {
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		def, ok := haSensor(k)
		if !ok || z.announced[k] {
			continue
		}
		if err := p.send(ctx, p.discoveryTopic(z.slug, k), p.discoveryPayload(zone, z.slug, k, def)); err != nil {
			return err
		}
		z.announced[k] = true
	}
	return nil
}

// state is zone's state message: its keys, its name, the measurements'
// own times, those that are simulated and the day's amounts.
func (p *Publisher) state(zone string, keys map[string]any, times map[string]int64, sims []string) map[string]any {
	state := make(map[string]any, len(keys)+4)
	for k, v := range keys {
		state[k] = v
	}
	state["zone"] = zone
	if len(times) > 0 {
		state[keyTimes] = times
	}
	if len(sims) > 0 {
		state[keySimulated] = sims
	}
	if when, ok := keys[sensors.KeyWhen].(int64); ok {
		if logs := amountLogs(p.climate, zone, keys, when); logs != nil {
			state[decode.KeyAmounts] = logs
		}
	}
	return state
}

// remove takes a zone off the broker: empty retained messages delete its
// discovery entries (and with them the Home Assistant device) and state.
func (p *Publisher) remove(ctx context.Context, zone string) error {
	z := p.zones[zone]
	for k := range z.announced {
		if err := p.send(ctx, p.discoveryTopic(z.slug, k), nil); err != nil {
			return err
		}
		delete(z.announced, k)
	}
	if err := p.send(ctx, p.stateTopic(z.slug), nil); err != nil {
		return err
	}
	delete(p.zones, zone)
	p.log.Info("mqtt: zone no longer published", "zone", zone)
	return nil
}

// send publishes retained at QoS 0: after a reconnect everything is
// published again (see Client.Publish).
func (p *Publisher) send(ctx context.Context, topic string, payload []byte) error {
	return p.client.Publish(ctx, topic, 0, true, payload)
}

// slugFor is zone's topic level, which the client allocates (zoneSlugs)
// for this publisher and the alert publisher alike.
func (p *Publisher) slugFor(zone string) string { return sharedOf(p.client).slugs.of(zone) }
