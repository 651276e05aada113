package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/mqtt"
)

// DefaultAlertQueue is how many events AlertPublisher.Event holds while
// its Run goroutine publishes; beyond it events are dropped and counted.
const DefaultAlertQueue = 256

// AlertSource is what the alert publisher needs of the alert engine;
// *alerts.Engine provides it.
type AlertSource interface {
	Rules() []alerts.Rule   // every rule that is on
	States() []alerts.State // every rule's phase in every zone it has seen
}

// AlertOptions configure an AlertPublisher.
type AlertOptions struct {
	// HomeAssistant announces a binary_sensor (device class problem) per
	// rule and zone, on the zone's device.
	HomeAssistant   bool
	DiscoveryPrefix string        // DefaultDiscoveryPrefix when empty
	Interval        time.Duration // how often the states are checked (DefaultPublishInterval)
	Version         string        // climated's, announced to Home Assistant
	Logger          *slog.Logger
}

// AlertPublisher publishes the alert engine on the broker: per event
// <prefix>/alerts/<rule>/<zone>/event (JSON, not retained), per rule and
// zone a retained <prefix>/alerts/<rule>/<zone>/state ON or OFF and,
// optionally, its Home Assistant discovery. States and discovery are
// published again after every reconnect and when Home Assistant comes
// online; those of a deleted rule are removed.
type AlertPublisher struct {
	client  *mqtt.Client
	source  AlertSource
	opts    AlertOptions
	log     *slog.Logger
	node    string
	events  chan alerts.Event
	dropped atomic.Int64
	running atomic.Bool
	birth   atomic.Bool

	// Run's own.
	session   uint64
	published map[alertKey]alertPub
}

type alertKey struct{ rule, zone string }

// alertPub is what the broker holds of one rule in one zone.
type alertPub struct {
	config []byte
	state  string
}

// NewAlertPublisher prepares a publisher of source's alerts on c.
func NewAlertPublisher(c *mqtt.Client, source AlertSource, opts *AlertOptions) (*AlertPublisher, error) {
	p := &AlertPublisher{client: c, source: source, events: make(chan alerts.Event, DefaultAlertQueue), published: map[alertKey]alertPub{}}
	if opts != nil {
		p.opts = *opts
	}
	if p.opts.Interval < 0 {
		return nil, fmt.Errorf("mqtt alerts: interval %s: must not be negative", p.opts.Interval)
	}
	if p.opts.Interval == 0 {
		p.opts.Interval = DefaultPublishInterval
	}
	if p.opts.DiscoveryPrefix == "" {
		p.opts.DiscoveryPrefix = DefaultDiscoveryPrefix
	}
	if err := mqtt.ValidTopic(p.opts.DiscoveryPrefix); err != nil {
		return nil, fmt.Errorf("mqtt alerts: discovery_prefix %q: %w", p.opts.DiscoveryPrefix, err)
	}
	p.log = p.opts.Logger
	if p.log == nil {
		p.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	p.node = slug(c.Prefix())
	return p, nil
}

// Event queues ev for publication; it never blocks. When the queue is
// full the event is dropped and counted (Dropped); the state topics catch
// up all the same.
func (p *AlertPublisher) Event(ev alerts.Event) {
	select {
	case p.events <- ev:
	default:
		if p.dropped.Add(1) == 1 {
			p.log.Warn("mqtt: alert events dropped: the broker is slower than the alerts", "queue", DefaultAlertQueue)
		}
	}
}

// Dropped counts the events Event dropped.
func (p *AlertPublisher) Dropped() int64 { return p.dropped.Load() }

// Run publishes until ctx ends; it returns nil then.
func (p *AlertPublisher) Run(ctx context.Context) error {
	if !p.running.CompareAndSwap(false, true) {
		return errors.New("mqtt alerts: Run called twice")
	}
	if p.opts.HomeAssistant {
		stop, err := watchBirth(p.client, p.opts.DiscoveryPrefix, &p.birth)
		if err != nil {
			return fmt.Errorf("mqtt alerts: %w", err)
		}
		defer stop()
	}
	tick := time.NewTicker(p.opts.Interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-p.events:
			p.publishEvent(ctx, ev)
		case <-tick.C:
		}
		if err := p.sync(ctx); err != nil && ctx.Err() == nil {
			p.log.Debug("mqtt: alert states incomplete, retrying", "err", err)
		}
	}
}

// alertBase is the topic of one rule in one zone, without /event or /state.
func (p *AlertPublisher) alertBase(rule, zone string) string {
	return p.client.Prefix() + "/alerts/" + slug(rule) + "/" + sharedOf(p.client).slugs.of(zone)
}

// alertEvent is the payload of an event topic.
type alertEvent struct {
	Type        string  `json:"type"` // fired, cleared
	Rule        string  `json:"rule"`
	Kind        string  `json:"kind"`
	Zone        string  `json:"zone"`
	Measurement string  `json:"measurement,omitempty"`
	Value       float64 `json:"value"`
	Unit        string  `json:"unit,omitempty"`
	Text        string  `json:"text"`
	Time        int64   `json:"time"` // Unix seconds
}

// publishEvent sends ev once, not retained: an event missed while the
// broker is away is not sent later (the state topic says where things are).
func (p *AlertPublisher) publishEvent(ctx context.Context, ev alerts.Event) {
	payload, _ := json.Marshal(alertEvent{Type: string(ev.Type), Rule: ev.Rule, Kind: string(ev.Kind), Zone: ev.Zone,
		Measurement: string(ev.Measurement), Value: ev.Value, Unit: ev.Unit, Text: ev.Text, Time: ev.Time.Unix()})
	if err := p.client.Publish(ctx, p.alertBase(ev.Rule, ev.Zone)+"/event", 0, false, payload); err != nil {
		p.log.Warn("mqtt: alert event not published", "rule", ev.Rule, "zone", ev.Zone, "err", err)
	}
}

// sync brings the broker's states and discovery up to date with the
// source; on an error it stops, and the rest is tried again next time.
func (p *AlertPublisher) sync(ctx context.Context) error {
	if !p.client.Ready() {
		return mqtt.ErrNotConnected
	}
	if s := p.client.Sessions(); s != p.session {
		p.session = s
		clear(p.published)
	}
	if p.birth.Swap(false) {
		for k, pub := range p.published {
			pub.config = nil
			p.published[k] = pub
		}
	}
	want := p.wanted()
	for k, w := range want {
		if err := p.bring(ctx, k, w); err != nil {
			return err
		}
	}
	for k, pub := range p.published {
		if _, ok := want[k]; !ok {
			if err := p.remove(ctx, k, pub); err != nil {
				return err
			}
		}
	}
	return nil
}

// wanted is what the broker should hold: each state of a rule that is on.
func (p *AlertPublisher) wanted() map[alertKey]alertPub {
	rules := map[string]alerts.Rule{}
	for _, r := range p.source.Rules() {
		rules[r.ID] = r
	}
	want := map[alertKey]alertPub{}
	for _, st := range p.source.States() {
		r, ok := rules[st.Rule]
		if !ok {
			continue
		}
		w := alertPub{state: "OFF"}
		if st.Active() {
			w.state = "ON"
		}
		if p.opts.HomeAssistant {
			w.config = p.alertDiscovery(r, st.Zone)
		}
		want[alertKey{st.Rule, st.Zone}] = w
	}
	return want
}

// bring publishes what of w the broker lacks, discovery before state.
func (p *AlertPublisher) bring(ctx context.Context, k alertKey, w alertPub) error {
	have := p.published[k]
	if w.config != nil && !bytes.Equal(w.config, have.config) {
		if err := p.client.Publish(ctx, p.alertDiscoveryTopic(k.rule, k.zone), 0, true, w.config); err != nil {
			return err
		}
		have.config = w.config
		p.published[k] = have
	}
	if w.state != have.state {
		if err := p.client.Publish(ctx, p.alertBase(k.rule, k.zone)+"/state", 0, true, []byte(w.state)); err != nil {
			return err
		}
		have.state = w.state
		p.published[k] = have
	}
	return nil
}

// remove deletes a rule's retained discovery and state in a zone.
func (p *AlertPublisher) remove(ctx context.Context, k alertKey, pub alertPub) error {
	if pub.config != nil {
		if err := p.client.Publish(ctx, p.alertDiscoveryTopic(k.rule, k.zone), 0, true, nil); err != nil {
			return err
		}
	}
	if err := p.client.Publish(ctx, p.alertBase(k.rule, k.zone)+"/state", 0, true, nil); err != nil {
		return err
	}
	delete(p.published, k)
	return nil
}

// alertDiscoveryTopic is where the binary_sensor of rule in zone is
// announced, beside the zone's sensors.
func (p *AlertPublisher) alertDiscoveryTopic(rule, zone string) string {
	return p.opts.DiscoveryPrefix + "/binary_sensor/" + p.node + "/" + sharedOf(p.client).slugs.of(zone) + "_alert_" + slug(rule) + "/config"
}

// haBinaryConfig is a Home Assistant MQTT discovery message for one
// binary_sensor; its state payloads are HA's defaults, ON and OFF.
type haBinaryConfig struct {
	Name                *string  `json:"name"`
	UniqueID            string   `json:"unique_id"`
	StateTopic          string   `json:"state_topic"`
	DeviceClass         string   `json:"device_class"`
	AvailabilityTopic   string   `json:"availability_topic"`
	PayloadAvailable    string   `json:"payload_available"`
	PayloadNotAvailable string   `json:"payload_not_available"`
	Device              haDevice `json:"device"`
	Origin              haOrigin `json:"origin"`
}

// alertDiscovery announces rule in zone as a problem binary_sensor of the
// zone's device (the device the zone's sensors are on).
func (p *AlertPublisher) alertDiscovery(r alerts.Rule, zone string) []byte {
	zs := sharedOf(p.client).slugs.of(zone)
	c := haBinaryConfig{
		Name:                entityName(zone, alertEntityName(r)),
		UniqueID:            p.node + "_" + zs + "_alert_" + slug(r.ID),
		StateTopic:          p.alertBase(r.ID, zone) + "/state",
		DeviceClass:         "problem",
		AvailabilityTopic:   p.client.AvailabilityTopic(),
		PayloadAvailable:    "online",
		PayloadNotAvailable: "offline",
		Device: haDevice{Identifiers: []string{p.node + "_" + zs}, Name: zone, Manufacturer: "climated",
			Model: "climated zone", SWVersion: p.opts.Version, SuggestedArea: zone},
		Origin: haOrigin{Name: "climated", SWVersion: p.opts.Version, SupportURL: supportURL},
	}
	data, _ := json.Marshal(c) // strings only: cannot fail
	return data
}

// alertEntityName is the rule's name ("Mould risk"), else its condition in
// words without the clear level ("Bedroom CO2 above 1200 ppm for 15 min"),
// whose zone entityName then strips.
func alertEntityName(r alerts.Rule) string {
	name := r.Name
	if name == "" {
		name, _, _ = strings.Cut(r.Describe(), " (")
	}
	first, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(first)) + name[size:]
}
