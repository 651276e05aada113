package decode

import (
	"sort"
	"strings"

	"github.com/climated/climated/sensors"
)

// tasmota decodes Tasmota telemetry: tele/<topic>/SENSOR with one object
// per sensor chip ({"BME280":{"Temperature":…}}) and the units in TempUnit
// and PressureUnit, tele/<topic>/STATE for the Wi-Fi signal and
// tele/<topic>/LWT (Online/Offline). The device is the Tasmota topic: the
// segments other than "tele" and the last. Other telemetry is ignored.
type tasmota struct{ fieldDecoder }

func (*tasmota) Format() string { return Tasmota }

func (d *tasmota) Decode(topic string, payload []byte) Result {
	segs := strings.Split(topic, "/")
	last := segs[len(segs)-1]
	var dev []string
	for _, s := range segs[:len(segs)-1] {
		if s != "tele" {
			dev = append(dev, s)
		}
	}
	r := Result{Device: strings.Join(dev, "/")}
	switch last {
	case "LWT":
		return availabilityOf(r.Device, payload)
	case "SENSOR", "STATE":
	default:
		return ignored(r.Device)
	}
	o, err := parseObject(payload)
	if err != nil {
		return r.fail("%w", err)
	}
	d.applyJSON(&r, o)
	if last == "STATE" {
		d.wifi(&r, o)
		return r
	}
	tempUnit, _ := o["TempUnit"].(string)
	pressUnit, _ := o["PressureUnit"].(string)
	// With several chips the first in name order gives a measurement; a
	// field with a path such as DS18B20.Temperature picks another.
	chips := make([]string, 0, len(o))
	for k, v := range o {
		if _, ok := v.(object); ok {
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
	}
	for _, chip := range chips {
		d.applyBuiltins(&r, o[chip].(object), names, chip+".")
	}
	return r
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
