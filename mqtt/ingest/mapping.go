package ingest

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/field"

	"github.com/climated/climated/mqtt/decode"
)

// DefaultQoS is the subscription QoS when a mapping names none: the broker
// then delivers QoS 1 messages as QoS 1, acknowledged, and QoS 0 as QoS 0.
const DefaultQoS = 1

// Mapping subscribes to a topic filter and says how its messages become
// readings: the payload format, and which zone each device feeds.
type Mapping struct {
	// Topic is a filter; + matches one level and # the rest, e.g.
	// zigbee2mqtt/+ or rtl_433/+/events.
	Topic string `yaml:"topic"`
	// Format is one of climated, esphome, generic, rtl_433, shelly,
	// tasmota, theengs, zigbee2mqtt.
	Format string `yaml:"format"`
	// Zone receives the readings of every device of this mapping that
	// Devices does not name.
	Zone string `yaml:"zone"`
	// Devices maps device names (as the format names them: friendly name,
	// node, MAC, model/channel/id …) to zones.
	Devices map[string]string `yaml:"devices"`
	// AutoZone makes a device that neither Zone nor Devices places a zone
	// of its own, named after the device, once it sends a climate value.
	// The climated format implies it when Zone and Devices are empty.
	AutoZone bool `yaml:"auto_zone"`
	// Fields add values a format does not know or read known ones from
	// elsewhere; the generic format is made of them.
	Fields []decode.Field `yaml:"fields"`
	// QoS is the subscription's maximum QoS, 0, 1 or 2; nil means 1.
	QoS *int `yaml:"qos"`
}

// Validate reports what is wrong with m, naming the field.
func (m *Mapping) Validate() error {
	if err := mqtt.ValidFilter(m.Topic); err != nil {
		return field.Errorf("topic", "topic %q: %w", m.Topic, err)
	}
	if m.Format == "" {
		return field.Errorf("format", "format: missing; want one of %s", strings.Join(decode.Formats(), ", "))
	}
	if _, err := decode.New(m.Format, m.Fields); err != nil {
		if errors.Is(err, decode.ErrUnknownFormat) {
			return field.Errorf("format", "format: %w", err)
		}
		return err
	}
	if m.QoS != nil && (*m.QoS < 0 || *m.QoS > 2) {
		return field.Errorf("qos", "qos %d: want 0, 1 or 2", *m.QoS)
	}
	if m.Zone != "" {
		if err := sensors.CheckZone(m.Zone); err != nil {
			return field.Errorf("zone", "zone %q: %w", m.Zone, err)
		}
	}
	if err := m.validDevices(); err != nil {
		return err
	}
	if m.Zone == "" && len(m.Devices) == 0 && !m.autoZone() {
		return errors.New("zone, devices, auto_zone: give a zone, a devices map or auto_zone: true, else nothing is recorded")
	}
	return nil
}

// validDevices checks the devices map: names, rtl_433 keys and zones.
func (m *Mapping) validDevices() error {
	for dev, zone := range m.Devices {
		if dev == "" {
			return field.Errorf("devices", "devices: empty device name")
		}
		if m.Format == decode.RTL433 {
			if err := validRTL433Key(dev); err != nil {
				return field.Errorf(fmt.Sprintf("devices.%s", dev), "devices[%q]: %w", dev, err)
			}
		}
		if err := sensors.CheckZone(zone); err != nil {
			return field.Errorf(fmt.Sprintf("devices.%s", dev), "devices[%q]: zone %q: %w", dev, zone, err)
		}
	}
	return nil
}

func (m *Mapping) autoZone() bool {
	return m.AutoZone || (m.Format == decode.Climated && m.Zone == "" && len(m.Devices) == 0)
}

func (m *Mapping) qos() byte {
	if m.QoS == nil {
		return DefaultQoS
	}
	return byte(*m.QoS)
}

// zoneFor says which zone device feeds, and whether the zone is one the
// device names itself (auto); "" means none.
func (m *Mapping) zoneFor(device string) (zone string, auto bool) {
	if z, ok := m.Devices[device]; ok {
		return z, false
	}
	if m.Zone != "" {
		return m.Zone, false
	}
	if m.autoZone() {
		return cleanZone(device), true
	}
	return "", false
}

// ValidateMappings checks every mapping and that no filter comes twice,
// naming the entry: subscriptions[2].topic ….
func ValidateMappings(ms []Mapping) error {
	seen := map[string]int{}
	for i := range ms {
		if err := ms[i].Validate(); err != nil {
			return field.Wrap(fmt.Sprintf("subscriptions[%d]", i), ": ", err)
		}
		if j, dup := seen[ms[i].Topic]; dup {
			return field.Errorf(fmt.Sprintf("subscriptions[%d].topic", i), "subscriptions[%d].topic %q: the same as subscriptions[%d]", i, ms[i].Topic, j)
		}
		seen[ms[i].Topic] = i
	}
	return nil
}

// cleanZone makes a device's own name fit to be a zone name: valid UTF-8
// without control characters, trimmed, at most sensors.MaxZoneName runes.
func cleanZone(name string) string {
	name = strings.ToValidUTF8(name, "")
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > sensors.MaxZoneName {
		name = strings.TrimSpace(string([]rune(name)[:sensors.MaxZoneName]))
	}
	return name
}

// oldRTL433Key is the key style an earlier README showed,
// Fineoffset-WH65B-101, which no station ever matched.
var oldRTL433Key = regexp.MustCompile(`^([A-Za-z0-9.]+-[A-Za-z0-9._-]*[A-Za-z][A-Za-z0-9._]*)-([0-9]+)$`)

// validRTL433Key catches the earlier README's key style, naming the key
// the station has.
func validRTL433Key(key string) error {
	if m := oldRTL433Key.FindStringSubmatch(key); m != nil {
		return fmt.Errorf("rtl_433 keys are rtl_433's devices path, model[/subtype][/channel][/id]: %s/%s (the log names each station's key the first time it is heard)", m[1], m[2])
	}
	return nil
}

// Validate reports what is wrong with o, naming the field.
func (o *Options) Validate() error {
	switch {
	case o.QueueSize < 0:
		return field.Errorf("queue_size", "queue_size %d: must not be negative", o.QueueSize)
	case o.MaxPayload < 0:
		return field.Errorf("max_payload", "max_payload %d: must not be negative", o.MaxPayload)
	case o.MaxAutoZones < 0:
		return field.Errorf("max_auto_zones", "max_auto_zones %d: must not be negative", o.MaxAutoZones)
	case o.LogInterval < 0:
		return field.Errorf("log_interval", "log_interval %s: must not be negative", o.LogInterval)
	}
	return nil
}
