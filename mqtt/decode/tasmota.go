package decode

import (
	"sort"
	"strconv"
	"strings"

	"github.com/climated/climated/sensors"
)

// tasmota decodes Tasmota telemetry: tele/<topic>/SENSOR with one object
// per sensor chip ({"BME280":{"Temperature":…}}, {"SDS0X1":{"PM2.5":…}})
// and the units in TempUnit
// and PressureUnit, tele/<topic>/STATE for the Wi-Fi signal and
// tele/<topic>/LWT (Online/Offline). The answer to "Status 10"
// (stat/<topic>/STATUS10, STATUS8 before 9.0) carries the same object as
// StatusSNS. The device is the Tasmota topic: the segments other than
// "tele" or "stat" and the last. Other telemetry is ignored.
//
// Each chip is a probe of the device ("DS18B20-2", "SHT3X"): the first
// chip in name order that gives a measurement gives the device's own, and
// <topic>/<chip> can be given a zone of its own. The processor's
// temperature (ESP32, ESP8266) is never a room's, and neither is Global,
// Tasmota's copy of another chip. Of the analog inputs (ANALOG) only a
// TemperatureN is: an NTC thermistor the user set up as a temperature
// (ADC_TEMP in xsns_02_analog.ino), on a Sonoff NSPanel the panel's room
// sensor. The lowest N is the chip's temperature; the raw A0, Range,
// Illuminance and the rest depend on the wiring, and a field with a path
// such as ANALOG.A0 or ANALOG.Temperature2 takes them.
type tasmota struct{ fieldDecoder }

// notRoom are the chip names whose values are never a room's by themselves.
var notRoom = map[string]bool{"ESP32": true, "ESP8266": true, "Global": true}

func (*tasmota) Format() string { return Tasmota }

func (d *tasmota) Decode(topic string, payload []byte) Result {
	segs := strings.Split(topic, "/")
	last := segs[len(segs)-1]
	var dev []string
	for _, s := range segs[:len(segs)-1] {
		if s != "tele" && s != "stat" {
			dev = append(dev, s)
		}
	}
	r := Result{Device: strings.Join(dev, "/")}
	switch last {
	case "LWT":
		return availabilityOf(r.Device, payload)
	case "SENSOR", "STATE", "STATUS8", "STATUS10":
	default:
		return ignored(r.Device)
	}
	o, err := parseObject(payload)
	if err != nil {
		return r.fail("%w", err)
	}
	if last == "STATUS8" || last == "STATUS10" {
		sns, ok := o["StatusSNS"].(object)
		if !ok {
			return ignored(r.Device)
		}
		o = sns
	}
	if last == "STATE" {
		d.applyJSON(&r, o)
		d.wifi(&r, o)
		return r
	}
	tempUnit, _ := o["TempUnit"].(string)
	pressUnit, _ := o["PressureUnit"].(string)
	d.applyFields(&r, o, tempUnit, pressUnit)
	d.applyChips(&r, o, tempUnit, pressUnit)
	return r
}

// applyChips reads each chip's object as a probe, in name order.
func (d *tasmota) applyChips(r *Result, o object, tempUnit, pressUnit string) {
	chips := make([]string, 0, len(o))
	for k, v := range o {
		if _, ok := v.(object); ok && !notRoom[k] {
			chips = append(chips, k)
		}
	}
	sort.Strings(chips)
	// Tasmota's "Pressure" is the station's; "SeaPressure" appears when an
	// altitude is configured.
	names := []builtin{
		{"Temperature", sensors.Temperature, tempUnit},
		{"Humidity", sensors.Humidity, ""},
		{"SeaPressure", sensors.Pressure, pressUnit},
		{"Pressure", sensors.AbsolutePressure, pressUnit},
		{"CarbonDioxide", sensors.CO2, ""},
		{"PM1", sensors.PM1, ""},
		{"PM2.5", sensors.PM25, ""},
		{"PM4", sensors.PM4, ""},
		{"PM10", sensors.PM10, ""},
	}
	for _, chip := range chips {
		if chip == "ANALOG" {
			d.applyProbe(r, o[chip].(object), analogTemperature(o[chip].(object), tempUnit), chip+".", chip)
			continue
		}
		d.applyProbe(r, o[chip].(object), append(names[:len(names):len(names)], tasmotaChipNames[chip]...), chip+".", chip)
	}
}

// analogTemperature is the name ANALOG's temperature goes by: Temperature,
// or TemperatureN of the lowest N (one per ADC_TEMP input, numbered from 1
// since Tasmota 9.5), or none.
func analogTemperature(o object, tempUnit string) []builtin {
	best, bestN := "", -1
	for k := range o {
		n, ok := analogIndex(k)
		if ok && (bestN < 0 || n < bestN) {
			best, bestN = k, n
		}
	}
	if best == "" {
		return nil
	}
	return []builtin{{best, sensors.Temperature, tempUnit}}
}

// analogIndex is N of "TemperatureN" (0 for a bare "Temperature").
func analogIndex(k string) (int, bool) {
	rest, ok := strings.CutPrefix(k, "Temperature")
	if !ok {
		return 0, false
	}
	if rest == "" {
		return 0, true
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0
}

// tasmotaChipNames are the names whose meaning depends on the chip. The
// particulate matter above (PM1, PM2.5, PM4, PM10 in µg/m³) is the same in
// every driver: SDS0X1 (xsns_20_novasds.ino), SEN5X (xsns_103_sen5x.ino)
// and PMS5003/PMS3003 (xsns_18_pms5003.ino), whose PMx are Plantower's
// atmospheric values (pm*_env, what Tasmota shows on its web page and
// sends to Domoticz) and whose CF1, CF2.5 and CF10 are the CF=1 "standard
// particle" values for factory calibration, not read. The SPS30
// (xsns_44_sps30.ino) spells them PM1_0, PM2_5, PM4_0 and PM10; its NCPMx
// are particle counts. SEN5X's VOC and NOx are Sensirion's indices;
// another chip's VOC may be a concentration.
var tasmotaChipNames = map[string][]builtin{
	"SEN5X": {{"VOC", sensors.VOCIndex, ""}, {"NOx", sensors.NOxIndex, ""}},
	"SPS30": {{"PM1_0", sensors.PM1, ""}, {"PM2_5", sensors.PM25, ""}, {"PM4_0", sensors.PM4, ""}},
}

// wifi reads STATE's Wi-Fi signal: Signal in dBm, or failing that RSSI,
// which Tasmota gives as a quality in percent.
func (d *tasmota) wifi(r *Result, o object) {
	if w, ok := o["Wifi"].(object); ok {
		d.applyBuiltins(r, w, []builtin{
			{"Signal", sensors.RFStatus, "dBm"},
			{"RSSI", sensors.RFStatus, "%"},
		}, "Wifi.")
	}
}

// applyFields reads the configured fields; one without a unit takes the
// payload's, so that ANALOG.Temperature1 on a device set to °F is read in
// °F.
func (d *tasmota) applyFields(r *Result, o object, tempUnit, pressUnit string) {
	for _, f := range d.fields {
		v, ok := lookup(o, f.Path)
		if !ok || v == nil {
			continue
		}
		if f.Unit == "" {
			switch f.Measurement {
			case sensors.Temperature:
				f.Unit = tempUnit
			case sensors.Pressure, sensors.AbsolutePressure:
				f.Unit = pressUnit
			}
		}
		d.apply(r, f, v, f.Path)
	}
}
