package decode

import (
	"strings"

	"github.com/climated/climated/sensors"
)

// rtl433 decodes rtl_433's MQTT output: the events topic
// (rtl_433/<host>/events) with one JSON object per received message, and
// the per-field device topics (rtl_433/<host>/devices/<model>/…/<field>)
// with plain values. A station is named model/channel/id (channel only when
// the model has one). rain_mm and rain_in are cumulative counters; the
// ingest turns their increases into Rain amounts. battery_ok, 0 (low) to 1
// (good), becomes battery_percent 0–100. The states topic is ignored.
type rtl433 struct{ fieldDecoder }

var rtl433Names = []builtin{
	{"temperature_C", sensors.Temperature, ""},
	{"temperature_F", sensors.Temperature, "F"},
	{"humidity", sensors.Humidity, ""},
	{"pressure_hPa", sensors.AbsolutePressure, "hPa"},
	{"pressure_kPa", sensors.AbsolutePressure, "kPa"},
	{"battery_mV", sensors.BatteryVoltage, "mV"},
}

func (*rtl433) Format() string { return RTL433 }

func (d *rtl433) Decode(topic string, payload []byte) Result {
	segs := strings.Split(topic, "/")
	for i, s := range segs {
		if s == "devices" && i+2 < len(segs) {
			return d.field(strings.Join(segs[i+1:len(segs)-1], "/"), segs[len(segs)-1], payload)
		}
	}
	if segs[len(segs)-1] == "states" {
		return ignored("")
	}
	o, err := parseObject(payload)
	if err != nil {
		return Result{}.fail("%w", err)
	}
	model, _ := o["model"].(string)
	if model == "" {
		return Result{}.fail("no model: not an rtl_433 event")
	}
	dev := []string{model}
	for _, k := range []string{"channel", "id"} {
		if v, ok := o[k]; ok {
			s, err := idString(v)
			if err != nil {
				return Result{}.fail("%s: %w", k, err)
			}
			dev = append(dev, s)
		}
	}
	r := Result{Device: strings.Join(dev, "/")}
	d.applyJSON(&r, o)
	d.event(&r, o)
	return r
}

// event reads the known fields of one event object.
func (d *rtl433) event(r *Result, o object) {
	d.applyBuiltins(r, o, rtl433Names, "")
	if raw, ok := o["battery_ok"]; ok && !d.configured(sensors.BatteryPercent) {
		v, err := number(raw)
		switch {
		case err != nil:
			r.problem("battery_ok", err)
		case v < 0 || v > 1:
			r.problem("battery_ok", errOutside(v, "0…1"))
		default:
			r.add(sensors.BatteryPercent, v*100, "", "battery_ok")
		}
	}
	if d.configured(sensors.Rain) {
		return
	}
	for _, k := range []struct{ key, unit string }{{"rain_mm", "mm"}, {"rain_in", "in"}} {
		if raw, ok := o[k.key]; ok {
			v, err := number(raw)
			if err != nil {
				r.problem(k.key, err)
				continue
			}
			r.addCounter(v, k.unit, k.key)
			return
		}
	}
}

// field decodes one per-field device topic as a one-field event.
func (d *rtl433) field(device, name string, payload []byte) Result {
	r := Result{Device: device}
	v, err := plainNumber(payload)
	known := name == "battery_ok" || name == "rain_mm" || name == "rain_in"
	for _, b := range rtl433Names {
		known = known || b.key == name
	}
	if !known && !d.named(name) {
		return ignored(device)
	}
	if err != nil {
		r.problem(name, err)
		return r
	}
	o := object{name: v}
	d.applyJSON(&r, o)
	d.event(&r, o)
	return r
}

// named reports whether a field's path is name.
func (d *rtl433) named(name string) bool {
	for _, f := range d.fields {
		if f.Path == name {
			return true
		}
	}
	return false
}
