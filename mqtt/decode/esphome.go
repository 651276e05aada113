package decode

import (
	"errors"
	"strings"

	"github.com/climated/climated/sensors"
)

// esphome decodes ESPHome's MQTT component topics: <node>/sensor/<name>/state
// with a plain number ("None", or "nan" before ESPHome 2024.11, when the
// sensor has no value: no value, not a fault) and
// <node>/status with online/offline. The node may be a topic prefix with
// slashes. A sensor's measurement comes from a field whose path is the
// sensor's name, else from words in the name (see the package doc); other
// components (binary_sensor, switch …) are ignored.
type esphome struct{ fieldDecoder }

func (*esphome) Format() string { return ESPHome }

func (d *esphome) Decode(topic string, payload []byte) Result {
	segs := strings.Split(topic, "/")
	n := len(segs)
	if n >= 2 && segs[n-1] == "status" {
		return availabilityOf(strings.Join(segs[:n-1], "/"), payload)
	}
	if n < 4 || segs[n-1] != "state" || segs[n-3] != "sensor" {
		return ignored("")
	}
	r := Result{Device: strings.Join(segs[:n-3], "/")}
	name := segs[n-2]
	if d.applyNamed(&r, name, payload) {
		return r
	}
	m, unit, ok := esphomeGuess(name)
	if !ok || d.configured(m) {
		return ignored(r.Device)
	}
	v, err := plainNumber(payload)
	switch {
	case errors.Is(err, errNoValue):
		// None or nan: the sensor has no reading now, not a fault.
	case err != nil:
		r.problem(name, err)
	default:
		r.add(m, v, unit, name)
	}
	return r
}

// esphomeGuess maps a sensor's object id onto a measurement by the words
// ESPHome configurations customarily use. The chip's own temperature
// (internal, cpu, chip, core) is not the room's.
func esphomeGuess(name string) (sensors.Measurement, string, bool) {
	s := strings.ToLower(name)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("internal", "cpu", "chip", "core", "uptime"):
		return "", "", false
	case has("battery") && has("volt"):
		return sensors.BatteryVoltage, "V", true
	case has("battery"):
		return sensors.BatteryPercent, "", true
	case has("wifi", "rssi", "signal"):
		return sensors.RFStatus, "dBm", true
	case has("humidity"):
		return sensors.Humidity, "", true
	case has("co2", "carbon_dioxide"):
		return sensors.CO2, "", true
	case has("sea_level", "sealevel") && has("pressure"):
		return sensors.Pressure, "hPa", true
	case has("pressure"):
		return sensors.AbsolutePressure, "hPa", true
	case has("noise", "sound"):
		return sensors.Noise, "", true
	case has("temperature") || s == "temp" || strings.HasPrefix(s, "temp_") || strings.HasSuffix(s, "_temp"):
		return sensors.Temperature, "", true
	}
	return "", "", false
}
