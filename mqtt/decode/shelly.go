package decode

import (
	"strings"

	"github.com/climated/climated/sensors"
)

// shelly decodes Shelly Gen2/Gen3 devices such as the H&T: the status topics
// <id>/status/temperature:0 ({"tC":…}), <id>/status/humidity:0 ({"rh":…}),
// <id>/status/devicepower:0 ({"battery":{"V":…,"percent":…}}) and
// <id>/status/wifi ({"rssi":…}); the notifications NotifyStatus and
// NotifyFullStatus on <id>/events/rpc, whose params carry the same
// components; and <id>/online (true/false). The device is the topic prefix
// before status, events or online.
type shelly struct{ fieldDecoder }

func (*shelly) Format() string { return Shelly }

func (d *shelly) Decode(topic string, payload []byte) Result {
	segs := strings.Split(topic, "/")
	n := len(segs)
	switch {
	case n >= 2 && segs[n-1] == "online":
		return availabilityOf(strings.Join(segs[:n-1], "/"), payload)
	case n >= 3 && segs[n-2] == "status":
		r := Result{Device: strings.Join(segs[:n-2], "/")}
		o, err := parseObject(payload)
		if err != nil {
			return r.fail("%w", err)
		}
		// Seen as one component of a full status, so that field paths
		// read the same on status topics and in notifications.
		d.components(&r, object{segs[n-1]: o})
		return r
	case n >= 3 && segs[n-2] == "events" && segs[n-1] == "rpc":
		r := Result{Device: strings.Join(segs[:n-2], "/")}
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
	}
	return ignored("")
}

// components reads the components climated knows from a status object.
func (d *shelly) components(r *Result, status object) {
	d.applyJSON(r, status)
	if t, ok := status["temperature:0"].(object); ok {
		d.applyBuiltins(r, t, []builtin{
			{"tC", sensors.Temperature, ""},
			{"tF", sensors.Temperature, "F"},
		}, "temperature:0.")
	}
	if h, ok := status["humidity:0"].(object); ok {
		d.applyBuiltins(r, h, []builtin{{"rh", sensors.Humidity, ""}}, "humidity:0.")
	}
	if p, ok := status["devicepower:0"].(object); ok {
		// On external power the battery readings are meaningless (a
		// Gen3 H&T on USB reports 0.43 V, 0 %).
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
