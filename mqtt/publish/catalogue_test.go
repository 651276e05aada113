package publish

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

// TestDiscoveryAnnouncesEveryMeasurement: a zone with every measurement of
// the catalogue gets a Home Assistant sensor for each, with the entry's
// name, unit, device and state class (a measurement without discovery used
// to be left out silently). The air-quality device classes are Home
// Assistant's pm1, pm25 and pm10; PM4 and the gas indices have none.
func TestDiscoveryAnnouncesEveryMeasurement(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	ha := mqtttest.CaptureOn(t, srv, "homeassistant/#", 1)
	c := clienttest.New(t, clienttest.FastOptions(broker, "climated/hub"))
	zone := map[string]any{"When": 1796036400}
	for _, info := range sensors.Catalogue() {
		zone[string(info.Name)] = info.Min
	}
	data, _ := json.Marshal(map[string]any{"Hall": zone})
	climate := &fakeClimate{}
	climate.set(string(data))
	p, err := NewPublisher(c, climate, &Options{HomeAssistant: true, Interval: 10 * time.Millisecond, Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runPublisher(t, p)
	for _, info := range sensors.Catalogue() {
		component, unit, tmpl := "sensor", info.Unit, "{{ value_json."+string(info.Name)+" }}"
		if info.HA.Binary {
			// Home Assistant's binary_sensor: ON and OFF are its default payloads.
			component, unit, tmpl = "binary_sensor", "", "{{ 'ON' if value_json."+string(info.Name)+" == 1 else 'OFF' }}"
		}
		topic := "homeassistant/" + component + "/climated_hub/hall_" + slug(string(info.Name)) + "/config"
		testutil.WaitFor(t, topic, func() bool { _, ok := ha.Last(topic); return ok })
		m, _ := ha.Last(topic)
		got := jsonOf(t, m)
		want := map[string]any{"name": info.HA.Name, "device_class": info.HA.DeviceClass, "unit_of_measurement": unit,
			"state_class": info.HA.StateClass, "icon": info.HA.Icon, "value_template": tmpl}
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

// haDeviceClasses are, for each sensor device class the catalogue uses,
// the units and state classes Home Assistant accepts with it: its
// DEVICE_CLASS_UNITS and DEVICE_CLASS_STATE_CLASSES
// (home-assistant/core, homeassistant/components/sensor/const.py, 2025),
// the units as its const.py spells them (UnitOfSpeed.KILOMETERS_PER_HOUR
// "km/h", UnitOfIrradiance.WATTS_PER_SQUARE_METER "W/m²",
// UnitOfVolumetricFlux.MILLIMETERS_PER_HOUR "mm/h", DEGREE "°" …). An
// entity with another is refused or logged as invalid by Home Assistant.
var haDeviceClasses = map[string]struct{ units, states []string }{
	"temperature":             {[]string{"°C", "°F", "K"}, []string{"measurement"}},
	"humidity":                {[]string{"%"}, []string{"measurement"}},
	"carbon_dioxide":          {[]string{"ppm"}, []string{"measurement"}},
	"sound_pressure":          {[]string{"dB", "dBA"}, []string{"measurement"}},
	"atmospheric_pressure":    {[]string{"cbar", "bar", "hPa", "mmHg", "inHg", "kPa", "mbar", "Pa", "psi"}, []string{"measurement"}},
	"precipitation":           {[]string{"cm", "in", "mm"}, []string{"measurement", "total", "total_increasing"}},
	"pm1":                     {[]string{"µg/m³"}, []string{"measurement"}},
	"pm25":                    {[]string{"µg/m³"}, []string{"measurement"}},
	"pm10":                    {[]string{"µg/m³"}, []string{"measurement"}},
	"voltage":                 {[]string{"V", "mV", "µV", "kV", "MV"}, []string{"measurement"}},
	"battery":                 {[]string{"%"}, []string{"measurement"}},
	"wind_speed":              {[]string{"ft/s", "km/h", "kn", "m/s", "mph", "Beaufort"}, []string{"measurement"}},
	"wind_direction":          {[]string{"°"}, []string{"measurement_angle"}},
	"irradiance":              {[]string{"W/m²", "BTU/(h⋅ft²)"}, []string{"measurement"}},
	"precipitation_intensity": {[]string{"in/d", "in/h", "mm/d", "mm/h"}, []string{"measurement"}},
	"moisture":                {[]string{"%"}, []string{"measurement"}},
	"distance":                {[]string{"km", "m", "cm", "mm", "mi", "yd", "ft", "in"}, []string{"measurement", "total", "total_increasing"}},
}

// TestDiscoveryClassesAsHomeAssistantHasThem: every measurement's device
// class takes its unit and state class in Home Assistant's own tables
// (the wind's direction must be measurement_angle, in degrees).
func TestDiscoveryClassesAsHomeAssistantHasThem(t *testing.T) {
	for _, info := range sensors.Catalogue() {
		if info.HA.Binary {
			// BinarySensorDeviceClass (binary_sensor/__init__.py): moisture is "wet".
			if info.HA.DeviceClass != "moisture" || info.HA.StateClass != "" {
				t.Errorf("%s: a binary_sensor of class %q", info.Name, info.HA.DeviceClass)
			}
			continue
		}
		if info.HA.DeviceClass == "" {
			continue
		}
		c, ok := haDeviceClasses[info.HA.DeviceClass]
		if !ok {
			t.Errorf("%s: device class %q is not in the table taken from Home Assistant: add it from sensor/const.py", info.Name, info.HA.DeviceClass)
			continue
		}
		if !slices.Contains(c.units, info.Unit) || !slices.Contains(c.states, info.HA.StateClass) {
			t.Errorf("%s: %s in %q with state class %q; Home Assistant takes %v with %v", info.Name, info.HA.DeviceClass, info.Unit, info.HA.StateClass, c.units, c.states)
		}
	}
	for key, def := range derivedSensors {
		c, ok := haDeviceClasses[def.deviceClass]
		switch {
		case def.deviceClass == "" || def.timestamp || def.enum:
		case !ok:
			t.Errorf("%s: device class %q is not in the table taken from Home Assistant", key, def.deviceClass)
		case !slices.Contains(c.units, def.unit) || !slices.Contains(c.states, def.stateClass):
			t.Errorf("%s: %s in %q with state class %q; Home Assistant takes %v with %v", key, def.deviceClass, def.unit, def.stateClass, c.units, c.states)
		}
	}
}
