package decode

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/climated/climated/sensors"
)

// shelly decodes Shelly devices, named by the topic prefix before status,
// events, online, sensor or ext_… (shellies/<id> for Gen1, <id> or any
// prefix set on the device for Gen2/Gen3).
//
// Gen2/Gen3 (Plus H&T, H&T Gen3, Plus add-on): the status topics
// <prefix>/status/temperature:0 ({"tC":…}), humidity:0 ({"rh":…}),
// devicepower:0 ({"battery":{"V":…,"percent":…}}) and wifi ({"rssi":…});
// NotifyStatus and NotifyFullStatus on <prefix>/events/rpc, whose params
// carry the same components; <prefix>/online (true/false).
// temperature:N and humidity:N other than 0 (the add-on's probes, 100 and
// up) are probes named after the component.
//
// Gen1 (H&T, Shelly 1 with the temperature add-on): plain numbers on
// <prefix>/sensor/temperature, /humidity and /battery (the H&T), and on
// <prefix>/ext_temperature/<i> and /ext_humidity/<i> (the add-on, °C,
// probe i; ext_temperature_f is the same in °F and ignored);
// <prefix>/online. The H&T's sensor/error, ext_power and act_reasons and
// the announce topics carry no reading and are ignored. The H&T sends its
// temperature in the unit set on the device, which no message names: for
// °F give a field {path: temperature, unit: F}.
type shelly struct{ fieldDecoder }

func (*shelly) Format() string { return Shelly }

func (d *shelly) Decode(topic string, payload []byte) Result {
	segs := strings.Split(topic, "/")
	n := len(segs)
	prefix := func(k int) string { return strings.Join(segs[:n-k], "/") }
	switch {
	case n >= 2 && segs[n-1] == "online":
		return availabilityOf(prefix(1), payload)
	case n >= 3 && segs[n-2] == "status":
		r := Result{Device: prefix(2)}
		o, err := parseObject(payload)
		if err != nil {
			return r.fail("%w", err)
		}
		// Seen as one component of a full status, so that field paths
		// read the same on status topics and in notifications.
		d.components(&r, object{segs[n-1]: o})
		return r
	case n >= 3 && segs[n-2] == "events" && segs[n-1] == "rpc":
		r := Result{Device: prefix(2)}
		o, err := parseObject(payload)
		if err != nil {
			return r.fail("%w", err)
		}
		if m, _ := o["method"].(string); m != "NotifyStatus" && m != "NotifyFullStatus" {
			return ignored(r.Device)
		}
		params, ok := o["params"].(object)
		if !ok {
			return r.fail("%s: params: want an object, got %s", o["method"], kind(o["params"]))
		}
		d.components(&r, params)
		return r
	case n >= 3 && segs[n-2] == "sensor":
		return d.gen1(prefix(2), segs[n-1], "", payload)
	case n >= 3 && (segs[n-2] == "ext_temperature" || segs[n-2] == "ext_humidity"):
		return d.gen1(prefix(2), segs[n-2], segs[n-1], payload)
	}
	return ignored("")
}

// gen1Names are the Gen1 topics with a value climated uses.
var gen1Names = map[string]builtin{
	"temperature":     {"temperature", sensors.Temperature, ""},
	"humidity":        {"humidity", sensors.Humidity, ""},
	"battery":         {"battery", sensors.BatteryPercent, ""},
	"ext_temperature": {"ext_temperature", sensors.Temperature, ""},
	"ext_humidity":    {"ext_humidity", sensors.Humidity, ""},
}

// gen1 decodes one Gen1 plain value; probe is the add-on's index, if any.
func (d *shelly) gen1(device, name, probe string, payload []byte) Result {
	r := Result{Device: device}
	if d.applyNamed(&r, name, payload) {
		return r
	}
	b, ok := gen1Names[name]
	if !ok || d.configured(b.m) {
		return ignored(device)
	}
	v, err := plainNumber(payload)
	switch {
	case errors.Is(err, errNoValue):
	case err != nil:
		r.problem(name, err)
	case probe == "":
		r.add(b.m, v, b.unit, name)
	default:
		// Probe 0 is the device's own, as on the H&T.
		r.addProbe(b.m, v, b.unit, name+"/"+probe, probe, probe == "0")
	}
	return r
}

// components reads the components climated knows from a status object.
func (d *shelly) components(r *Result, status object) {
	d.applyJSON(r, status)
	probes := make([]string, 0, 2)
	for k := range status {
		if strings.HasPrefix(k, "temperature:") || strings.HasPrefix(k, "humidity:") {
			probes = append(probes, k)
		}
	}
	sort.Strings(probes)
	for _, k := range probes {
		o, ok := status[k].(object)
		if !ok {
			continue
		}
		// The values are null then; the errors say why.
		if errs, _ := o["errors"].([]any); len(errs) > 0 {
			r.problem(k+".errors", fmt.Errorf("the device reports %v", errs))
		}
		probe := k[strings.IndexByte(k, ':')+1:]
		if probe == "0" {
			probe = "" // the device's own sensor
		}
		d.applyProbe(r, o, []builtin{
			{"tC", sensors.Temperature, ""},
			{"tF", sensors.Temperature, "F"},
			{"rh", sensors.Humidity, ""},
		}, k+".", probe)
	}
	if p, ok := status["devicepower:0"].(object); ok {
		// On external power the battery readings are meaningless (a
		// Plus H&T on USB reports 0.43 V, 0 %).
		ext, _ := p["external"].(object)
		if present, _ := ext["present"].(bool); !present {
			if b, ok := p["battery"].(object); ok {
				d.applyBuiltins(r, b, []builtin{
					{"percent", sensors.BatteryPercent, ""},
					{"V", sensors.BatteryVoltage, "V"},
				}, "devicepower:0.battery.")
			}
		}
	}
	if w, ok := status["wifi"].(object); ok {
		d.applyBuiltins(r, w, []builtin{{"rssi", sensors.RFStatus, "dBm"}}, "wifi.")
	}
}
