package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/climated/climated/internal/excerpt"
	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

// placer is what the ingest remembers of devices beyond their zones: which
// source gives each zone each measurement, and which probes were already
// said to feed no zone. Run's goroutine alone uses it; the zero value is
// ready.
type placer struct {
	feeders map[string]string   // zone and measurement → the source giving it
	noted   map[string]struct{} // probes and zone clashes already logged

	hubMu sync.RWMutex    // hub is read by the publisher
	hub   map[string]bool // zones fed by other hubs (format climated)
}

// maxNoted bounds what placer remembers, against a wildcard that catches
// every sensor in the neighbourhood.
const maxNoted = 4096

// errNoClimate is why a device that sends only battery or signal values
// (a passing phone's BLE beacon) gets no zone of its own: expected, so
// logged at debug level only.
var errNoClimate = errors.New("auto_zone makes a zone once the device sends a climate value; so far it sent only battery or signal values")

// place finds or places the device (or probe) name of mapping, which sent
// vs; nil means it feeds no zone, and the error says why.
func (in *Ingest) place(mapping int, name string, vs []decode.Value) (*device, error) {
	if name == "" {
		return nil, errors.New("the message names no device")
	}
	key := deviceKey{mapping, name}
	if d, ok := in.devices[key]; ok {
		return d, nil
	}
	m := &in.mappings[mapping]
	if len(in.devices) >= maxDevices {
		return nil, noZoneError(name, fmt.Sprintf("%d devices are known already, the most remembered", maxDevices))
	}
	zone, auto := m.zoneFor(name)
	if zone == "" {
		return nil, noZoneError(name, fmt.Sprintf("unmapped; add %q under devices: of subscription %q, or set zone or auto_zone", name, m.Topic))
	}
	source := "mqtt/" + m.Format + "/" + name
	if err := checkDevice(zone, source); err != nil {
		return nil, err
	}
	if auto && !in.Feeds(zone) {
		// A zone of its own only for a device that measures the climate:
		// not for a passing phone's BLE beacon, and within the bound.
		if !hasRoomValue(vs) {
			return nil, fmt.Errorf("device %q: %w", name, errNoClimate)
		}
		if in.autoZones >= in.opts.MaxAutoZones {
			return nil, noZoneError(name, fmt.Sprintf("max_auto_zones %d reached; add it under devices: or raise max_auto_zones", in.opts.MaxAutoZones))
		}
		in.autoZones++
		level := slog.LevelInfo
		if in.opts.KnownZone != nil && in.opts.KnownZone(zone) {
			level = slog.LevelDebug
		}
		in.log.Log(context.Background(), level, "mqtt: new zone from a device", "zone", zone, "device", name, "format", m.Format, "topic", m.Topic)
	}
	in.addZone(zone)
	if m.Format == decode.Climated {
		in.placer.fromHub(zone)
	}
	d := &device{zone: zone, status: sensors.Status{
		Source: source,
		Zones:  []string{zone},
	}}
	in.devices[key] = d
	if _, named := m.Devices[name]; !named && !auto {
		// The key exactly as devices: accepts it (a new zone from
		// auto_zone is logged above, with the key).
		in.log.Info("mqtt: unmapped device; add it under devices: to choose its zone",
			"device", name, "zone", zone, "format", m.Format, "subscription", m.Topic)
	}
	return d, nil
}

// checkDevice refuses a device whose zone or source name no reading may
// carry (sensors.Reading.Validate's rules for them), once, as it is
// placed: its readings then need only their values checked.
func checkDevice(zone, source string) error {
	if !utf8.ValidString(source) {
		return fmt.Errorf("device source %s: the name is not UTF-8", excerpt.Quote(source))
	}
	if err := sensors.CheckZone(zone); err != nil {
		return fmt.Errorf("zone %s: %w", excerpt.Quote(zone), err)
	}
	return nil
}

// probeGroup are the values of one probe that feeds a zone of its own.
type probeGroup struct {
	name string // <device>/<probe>
	vs   []decode.Value
}

// split sorts res's values into the device's own and those of probes
// with a zone of their own (mapped under devices, or made by auto_zone);
// a probe without either is dropped, said once. Both get the sea-level
// Pressure derived where only the station's was sent.
func (in *Ingest) split(item inbound, res *decode.Result) ([]decode.Value, []probeGroup) {
	hasProbe := false
	for i := range res.Values {
		if res.Values[i].Probe != "" {
			hasProbe = true
			break
		}
	}
	if !hasProbe {
		return in.seaLevel(res.Values), nil
	}
	m := &in.mappings[item.mapping]
	var main []decode.Value
	var groups []probeGroup
	for _, v := range res.Values {
		name := res.Device + "/" + v.Probe
		_, mapped := m.Devices[name]
		switch {
		case v.Probe == "" || (v.Main && !mapped):
			main = append(main, v)
		case mapped || m.autoZone():
			groups = addTo(groups, name, v)
		default:
			in.noteOnce(name, "mqtt: probe feeds no zone; add it under devices: to give it one",
				"device", name, "measurement", v.Measurement, "subscription", m.Topic)
		}
	}
	for i := range groups {
		groups[i].vs = in.seaLevel(groups[i].vs)
	}
	return in.seaLevel(main), groups
}

func addTo(groups []probeGroup, name string, v decode.Value) []probeGroup {
	for i := range groups {
		if groups[i].name == name {
			groups[i].vs = append(groups[i].vs, v)
			return groups
		}
	}
	return append(groups, probeGroup{name: name, vs: []decode.Value{v}})
}

// seaLevel adds the sea-level Pressure derived from the station's, as for
// the hub's own sensors, when vs have only the station's.
func (in *Ingest) seaLevel(vs []decode.Value) []decode.Value {
	abs, sea := -1, false
	for i := range vs {
		switch vs[i].Measurement {
		case sensors.AbsolutePressure:
			abs = i
		case sensors.Pressure:
			sea = true
		}
	}
	if abs < 0 || sea {
		return vs
	}
	p := vs[abs]
	p.Measurement, p.Value = sensors.Pressure, sensors.SeaLevelPressure(p.Value, in.opts.Altitude)
	return append(vs, p) // vs is the caller's own: the decoder's result or a group
}

// addProbeReadings records the values of probes with zones of their own.
func (in *Ingest) addProbeReadings(item inbound, groups []probeGroup, b *batch) {
	for _, g := range groups {
		dev, why := in.place(item.mapping, g.name, g.vs)
		if dev == nil {
			in.warnDevice("device feeds no zone", item, g.name, why)
			continue
		}
		if dev.replayed(item) {
			continue
		}
		in.addReadings(item, g.vs, dev, item.at, false, nil, b)
		b.touch(dev)
	}
}

// claim notes that dev gives m to its zone, and warns once when another
// source gives the zone the same measurement: two devices (or a device
// and another hub) named for one room interleave their values.
func (in *Ingest) claim(dev *device, m sensors.Measurement) {
	for _, g := range dev.gives {
		if g == m {
			return
		}
	}
	dev.gives = append(dev.gives, m)
	p := &in.placer
	if p.feeders == nil {
		p.feeders = make(map[string]string)
	}
	key := dev.zone + "\x00" + string(m)
	prev, ok := p.feeders[key]
	switch {
	case !ok && len(p.feeders) < maxNoted:
		p.feeders[key] = dev.status.Source
	case ok && prev != dev.status.Source:
		// Once per pair of sources, naming the first clash.
		in.noteOnce("clash\x00"+dev.zone+"\x00"+prev+"\x00"+dev.status.Source,
			"mqtt: two sources feed the same zone; give one of them another zone",
			"zone", dev.zone, "measurement", m, "sources", prev+", "+dev.status.Source)
	}
}

// noteOnce logs msg the first time key is seen.
func (in *Ingest) noteOnce(key, msg string, args ...any) {
	p := &in.placer
	if p.noted == nil {
		p.noted = make(map[string]struct{})
	}
	if _, done := p.noted[key]; done || len(p.noted) >= maxNoted {
		return
	}
	p.noted[key] = struct{}{}
	in.log.Warn(msg, args...)
}

// warnDevice logs bad input of a device, at most once per kind and device
// per log_interval (per topic when the payload names no device), so that
// one station's garbage on rtl_433's shared topic hides no other's.
func (in *Ingest) warnDevice(kind string, item inbound, dev string, err error) {
	level := slog.LevelWarn
	if errors.Is(err, errNoClimate) {
		level = slog.LevelDebug
	}
	if !in.log.Enabled(context.Background(), level) {
		return
	}
	key := kind + "\x00" + strconv.Itoa(item.mapping) + "\x00" + dev
	if dev == "" {
		key = kind + "\x00topic\x00" + item.msg.Topic
	}
	ok, suppressed := in.limit.Allow(key, item.at)
	if !ok {
		return
	}
	payload := item.msg.Payload[:min(len(item.msg.Payload), 4*excerptBytes)] // Excerpt copies what it is given
	in.log.Log(context.Background(), level, "mqtt: "+kind, "topic", item.msg.Topic, "device", dev,
		"payload", decode.Excerpt(payload, excerptBytes), "err", err, "suppressed", suppressed)
}

func (p *placer) fromHub(zone string) {
	p.hubMu.Lock()
	defer p.hubMu.Unlock()
	if p.hub == nil {
		p.hub = make(map[string]bool)
	}
	p.hub[zone] = true
}

// PublishSkip is what a Publisher of this hub leaves out
// (publish.Options.Skip): every zone fed over MQTT, or with deviceZones
// (publish.Options.DeviceZones) only those fed by other hubs, so that hubs
// never echo each other's zones.
func (in *Ingest) PublishSkip(deviceZones bool) func(zone string) bool {
	if !deviceZones {
		return in.Feeds
	}
	return func(zone string) bool {
		in.placer.hubMu.RLock()
		defer in.placer.hubMu.RUnlock()
		return in.placer.hub[zone]
	}
}
