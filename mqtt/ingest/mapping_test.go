package ingest

import (
	"strings"
	"testing"

	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

func TestMappingValidate(t *testing.T) {
	two := 2
	three := 3
	cases := []struct {
		name string
		m    Mapping
		want string
	}{
		{"zone", Mapping{Topic: "zigbee2mqtt/bedroom", Format: "zigbee2mqtt", Zone: "Bedroom"}, ""},
		{"devices", Mapping{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", Devices: map[string]string{"th1": "Bedroom"}}, ""},
		{"auto", Mapping{Topic: "rtl_433/+/events", Format: "rtl_433", AutoZone: true, QoS: &two}, ""},
		{"climated is auto", Mapping{Topic: "climated/hub2/+/state", Format: "climated"}, ""},
		{"generic", Mapping{Topic: "attic/t", Format: "generic", Zone: "Attic",
			Fields: []decode.Field{{Measurement: sensors.Temperature, Unit: "°F"}}}, ""},
		{"bad topic", Mapping{Topic: "a/#/b", Format: "tasmota", Zone: "Z"}, `topic "a/#/b"`},
		{"no format", Mapping{Topic: "a", Zone: "Z"}, "format: missing"},
		{"bad format", Mapping{Topic: "a", Format: "homie", Zone: "Z"}, `format: unknown format "homie"`},
		{"generic without fields", Mapping{Topic: "a", Format: "generic", Zone: "Z"}, "at least one entry in fields"},
		{"bad field", Mapping{Topic: "a", Format: "generic", Zone: "Z", Fields: []decode.Field{{Measurement: "temp"}}}, `fields[0]: measurement "temp"`},
		{"qos 3", Mapping{Topic: "a", Format: "tasmota", Zone: "Z", QoS: &three}, "qos 3"},
		{"no zone", Mapping{Topic: "a", Format: "tasmota"}, "give a zone"},
		{"zone with spaces", Mapping{Topic: "a", Format: "tasmota", Zone: " Z"}, "surrounding spaces"},
		{"device zone empty", Mapping{Topic: "a", Format: "tasmota", Devices: map[string]string{"x": ""}}, `devices["x"]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { mqtttest.WantErr(t, c.m.Validate(), c.want) })
	}
}

func TestValidateMappingsNamesEntry(t *testing.T) {
	ms := []Mapping{
		{Topic: "a/+", Format: "tasmota", Zone: "A"},
		{Topic: "b", Format: "tasmota"},
	}
	mqtttest.WantErr(t, ValidateMappings(ms), "subscriptions[1]: zone, devices, auto_zone")
	ms[1] = Mapping{Topic: "a/+", Format: "esphome", Zone: "B"}
	mqtttest.WantErr(t, ValidateMappings(ms), `subscriptions[1].topic "a/+": the same as subscriptions[0]`)
}

func TestZoneFor(t *testing.T) {
	m := Mapping{Format: "zigbee2mqtt", Devices: map[string]string{"th1": "Bedroom"}, AutoZone: true}
	cases := []struct {
		device, zone string
		auto         bool
	}{
		{"th1", "Bedroom", false},
		{"Garden sensor", "Garden sensor", true},
		{" padded\x07 ", "padded", true},
		{strings.Repeat("ü", 80), strings.Repeat("ü", 64), true},
	}
	for _, c := range cases {
		if z, a := m.zoneFor(c.device); z != c.zone || a != c.auto {
			t.Errorf("zoneFor(%q) = %q, %v; want %q, %v", c.device, z, a, c.zone, c.auto)
		}
	}
	m = Mapping{Format: "tasmota", Zone: "Kitchen"}
	if z, a := m.zoneFor("anything"); z != "Kitchen" || a {
		t.Errorf("fixed zone: %q %v", z, a)
	}
	m = Mapping{Format: "tasmota", Devices: map[string]string{"x": "X"}}
	if z, _ := m.zoneFor("y"); z != "" {
		t.Errorf("unplaced device got zone %q", z)
	}
}

// The earlier README's rtl_433 key style is refused with the key the
// station has; rtl_433's own keys, with or without id, are taken.
func TestRTL433Keys(t *testing.T) {
	m := Mapping{Topic: "rtl_433/+/events", Format: "rtl_433"}
	for key, want := range map[string]string{
		"Fineoffset-WH65B-101":  "Fineoffset-WH65B/101",
		"Fineoffset-WH65B/101":  "",
		"Fineoffset-WHx080/0/5": "",
		"Acurite-986":           "",
		"Acurite-Tower/B/9884":  "",
	} {
		m.Devices = map[string]string{key: "Garden"}
		mqtttest.WantErr(t, m.Validate(), want)
	}
}

// A mapping subscribes at its qos, and at DefaultQoS when it names none.
func TestMappingQoS(t *testing.T) {
	zero := 0
	if q := (&Mapping{}).qos(); q != DefaultQoS {
		t.Errorf("no qos: %d, want %d", q, DefaultQoS)
	}
	if q := (&Mapping{QoS: &zero}).qos(); q != 0 {
		t.Errorf("qos 0: %d", q)
	}
}
