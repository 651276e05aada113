package mqtt

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestDiscoveryAnnouncesEveryMeasurement: a zone with every measurement of
// the catalogue gets a Home Assistant sensor for each, with the entry's
// name, unit, device and state class (a measurement without discovery used
// to be left out silently). The air-quality device classes are Home
// Assistant's pm1, pm25 and pm10; PM4 and the gas indices have none.
func TestDiscoveryAnnouncesEveryMeasurement(t *testing.T) {
	srv, broker := startMochi(t)
	ha := captureOn(t, srv, "homeassistant/#", 1)
	c := newClient(t, fastOptions(broker, "climated/hub"))
	zone := map[string]any{"When": 1796036400}
	for _, info := range sensors.Catalogue() {
		zone[string(info.Name)] = info.Min
	}
	data, _ := json.Marshal(map[string]any{"Hall": zone})
	climate := &fakeClimate{}
	climate.set(string(data))
	p, err := NewPublisher(c, climate, &PublishOptions{HomeAssistant: true, Interval: 10 * time.Millisecond, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	runClient(t, c)
	runPublisher(t, p)
	for _, info := range sensors.Catalogue() {
		topic := "homeassistant/sensor/climated_hub/hall_" + slug(string(info.Name)) + "/config"
		testutil.WaitFor(t, topic, func() bool { _, ok := ha.last(topic); return ok })
		m, _ := ha.last(topic)
		got := jsonOf(t, m)
		want := map[string]any{"name": info.HA.Name, "device_class": info.HA.DeviceClass, "unit_of_measurement": info.Unit,
			"state_class": "measurement", "icon": info.HA.Icon, "value_template": "{{ value_json." + string(info.Name) + " }}"}
		for field, w := range want {
			if g, _ := got[field].(string); g != w {
				t.Errorf("%s: %s = %#v, want %q", info.Name, field, got[field], w)
			}
		}
		if got["name"] == "" || (got["device_class"] == nil && got["icon"] == nil) {
			t.Errorf("%s: announced without a name, or without a device class or an icon: %v", info.Name, got)
		}
		if diag := got["entity_category"] == "diagnostic"; diag != (info.Kind == sensors.Health) {
			t.Errorf("%s: entity_category %v for kind %v", info.Name, got["entity_category"], info.Kind)
		}
	}
	for m, class := range map[sensors.Measurement]string{sensors.PM1: "pm1", sensors.PM25: "pm25", sensors.PM10: "pm10", sensors.PM4: "", sensors.VOCIndex: "", sensors.NOxIndex: ""} {
		if info, _ := sensors.Lookup(m); info.HA.DeviceClass != class {
			t.Errorf("%s: device class %q, want %q", m, info.HA.DeviceClass, class)
		}
	}
}
