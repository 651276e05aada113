package decode

import (
	"errors"
	"regexp"
	"strings"

	"github.com/climated/climated/sensors"
)

// esphome decodes ESPHome's MQTT component topics: <node>/sensor/<name>/state
// with a plain number ("None", or "nan" before ESPHome 2024.11, when the
// sensor has no value: no value, not a fault) and
// <node>/status with online/offline. The node may be a topic prefix with
// slashes. A sensor's measurement comes from a field whose path is the
// sensor's name, else from words in the name (esphomeGuess); other
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
	if has("internal", "cpu", "chip", "core", "uptime") {
		return "", "", false
	}
	if m, ok := esphomeAirQuality(s); ok {
		return m, "", true
	}
	switch {
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

// pmSize is a particle size after "pm" or "particulate_matter" in an object
// id: ESPHome makes the id from the name, lower case, with every byte but
// a-z, 0-9, - and _ replaced by _ ("PM <2.5µm Weight concentration" →
// pm__2_5__m_weight_concentration; the µ is two bytes), and before 2023
// dropped them (particulate_matter_25m_concentration).
var pmSize = regexp.MustCompile(`(?:^|[^a-z])(?:pm|particulate_matter)_*(\d+)(?:[_.](\d+))?`)

// pmSizes are the sizes as the id spells them.
var pmSizes = map[string]sensors.Measurement{
	"1": sensors.PM1, "1_0": sensors.PM1,
	"2_5": sensors.PM25, "25": sensors.PM25,
	"4": sensors.PM4, "4_0": sensors.PM4,
	"10": sensors.PM10, "10_0": sensors.PM10,
}

// esphomeAirQuality maps the object ids of particulate matter sensors
// (sen5x, pmsx003, sds011, pm1006 …: pm_2_5, pm2_5, pm25,
// pm__2_5__m_weight_concentration) and Sensirion's indices (sen5x and
// sgp4x: voc_index, nox_index, or VOC and NOx as the sen5x examples name
// them). The pmsx003's standard-particle values (pm_2_5_std, "Standard
// Atmosphere"), particle counts, raw signals and AQIs are not read.
func esphomeAirQuality(s string) (sensors.Measurement, bool) {
	words := strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' })
	word := map[string]bool{}
	for _, w := range words {
		word[w] = true
	}
	switch {
	case word["std"] || word["standard"] || word["raw"] || word["aqi"] || strings.Contains(s, "count"):
		return "", false
	case s == "voc" || word["voc"] && word["index"]:
		return sensors.VOCIndex, true
	case word["nox"]:
		return sensors.NOxIndex, true
	}
	m := pmSize.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	size := m[1]
	if m[2] != "" {
		size += "_" + m[2]
	}
	pm, ok := pmSizes[size]
	return pm, ok
}
