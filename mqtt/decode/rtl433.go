package decode

import (
	"errors"
	"regexp"
	"strings"

	"github.com/climated/climated/sensors"
)

// rtl433 decodes rtl_433's MQTT output: the events topic
// (rtl_433/<host>/events) with one JSON object per received message, and
// the per-field device topics (rtl_433/<host>/devices/<key>/<field>) with
// plain values. The states topic is ignored.
//
// A station's key is the path rtl_433 gives it under devices/ by default,
// [type/]model[/subtype][/channel][/id], each part with the characters
// other than letters, digits, '-' and '.' as '_': Fineoffset-WH65B/16,
// Acurite-Tower/B/9884, Fineoffset-WHx080/0/5. Events and device topics
// give the same key.
//
// rain_mm and rain_in are cumulative counters; the ingest turns their
// increases into Rain amounts. battery_ok, 0 (low) to 1 (good), becomes
// battery_percent 0–100. A second sensor of a station (temperature_1_C,
// humidity_1 …) is probe "1" of the station.
type rtl433 struct{ fieldDecoder }

var rtl433Names = []builtin{
	{"temperature_C", sensors.Temperature, ""},
	{"temperature_F", sensors.Temperature, "F"},
	{"humidity", sensors.Humidity, ""},
	{"pressure_hPa", sensors.AbsolutePressure, "hPa"},
	{"pressure_kPa", sensors.AbsolutePressure, "kPa"},
	{"battery_mV", sensors.BatteryVoltage, "mV"},
	// Weather stations, by rtl_433's field names (docs/DATA_FORMAT.md):
	// wind in km/h, m/s or mph, its direction in degrees, the UV index
	// (uvi; uv is a raw sensor count), the rain's rate, soil moisture.
	{"wind_avg_km_h", sensors.WindStrength, "km/h"},
	{"wind_avg_m_s", sensors.WindStrength, "m/s"},
	{"wind_avg_mi_h", sensors.WindStrength, "mph"},
	{"wind_max_km_h", sensors.GustStrength, "km/h"},
	{"wind_max_m_s", sensors.GustStrength, "m/s"},
	{"wind_max_mi_h", sensors.GustStrength, "mph"},
	{"wind_dir_deg", sensors.WindAngle, "°"},
	{"uvi", sensors.UV, ""},
	{"rain_rate_mm_h", sensors.RainRate, "mm/h"},
	{"rain_rate_in_h", sensors.RainRate, "in/h"},
	{"moisture", sensors.SoilMoisture, "%"},
}

// rtl433Probe matches the fields of a station's further sensors.
var rtl433Probe = regexp.MustCompile(`^(temperature|humidity)_([0-9]+)(_C|_F)?$`)

// rtl433Key are the fields that make up a station's key, in order.
var rtl433Key = []string{"type", "model", "subtype", "channel", "id"}

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
	if model, _ := o["model"].(string); model == "" {
		return Result{}.fail("no model: not an rtl_433 event")
	}
	key := make([]string, 0, len(rtl433Key))
	for _, k := range rtl433Key {
		if v, ok := o[k]; ok {
			s, err := idString(v)
			if err != nil {
				return Result{}.fail("%s: %w", k, err)
			}
			key = append(key, sanitize(s))
		}
	}
	r := Result{Device: strings.Join(key, "/")}
	d.applyJSON(&r, o)
	d.event(&r, o)
	return r
}

// sanitize spells a key part as rtl_433 spells it in topics.
func sanitize(s string) string {
	return strings.Map(func(c rune) rune {
		if c == '-' || c == '.' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			return c
		}
		return '_'
	}, s)
}

// event reads the known fields of one event object.
func (d *rtl433) event(r *Result, o object) {
	d.applyBuiltins(r, o, rtl433Names, "")
	d.probes(r, o)
	if raw, ok := o["battery_ok"]; ok && raw != nil && !d.configured(sensors.BatteryPercent) {
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
		if raw, ok := o[k.key]; ok && raw != nil {
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

// probes reads temperature_1_C, humidity_1 … as probes of the station.
func (d *rtl433) probes(r *Result, o object) {
	for k, raw := range o {
		m := rtl433Probe.FindStringSubmatch(k)
		if m == nil || raw == nil {
			continue
		}
		b := builtin{k, sensors.Humidity, ""}
		if m[1] == "temperature" {
			b.m, b.unit = sensors.Temperature, strings.TrimPrefix(m[3], "_")
		}
		if d.configured(b.m) {
			continue
		}
		v, err := number(raw)
		if err != nil {
			r.problem(k, err)
			continue
		}
		r.addProbe(b.m, v, b.unit, k, m[2], false)
	}
}

// field decodes one per-field device topic as a one-field event.
func (d *rtl433) field(device, name string, payload []byte) Result {
	r := Result{Device: device}
	known := name == "battery_ok" || name == "rain_mm" || name == "rain_in" || rtl433Probe.MatchString(name)
	for _, b := range rtl433Names {
		known = known || b.key == name
	}
	if !known && !d.named(name) {
		return ignored(device)
	}
	v, err := plainNumber(payload)
	if errors.Is(err, errNoValue) {
		return r
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
