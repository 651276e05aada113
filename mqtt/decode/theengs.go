package decode

import (
	"strings"

	"github.com/climated/climated/sensors"
)

// theengs decodes the BLE sensors that Theengs Gateway and OpenMQTTGateway
// relay: home/<gateway>/BTtoMQTT/<MAC> with a JSON object decoded by the
// Theengs decoder (tempc, hum, batt, volt in volts, rssi as the gateway
// received it). The device is the MAC of the topic, or the payload's id
// when the gateway publishes every sensor on BTtoMQTT itself. Topics
// without a BTtoMQTT segment (the gateway's LWT, SYStoMQTT …) are ignored.
type theengs struct{ fieldDecoder }

var theengsNames = []builtin{
	{"tempc", sensors.Temperature, ""},
	{"tempf", sensors.Temperature, "F"},
	{"hum", sensors.Humidity, ""},
	{"pres", sensors.AbsolutePressure, "hPa"},
	{"co2", sensors.CO2, ""},
	{"batt", sensors.BatteryPercent, ""},
	{"volt", sensors.BatteryVoltage, "V"},
	{"rssi", sensors.RFStatus, "dBm"},
}

func (*theengs) Format() string { return Theengs }

func (d *theengs) Decode(topic string, payload []byte) Result {
	segs := strings.Split(topic, "/")
	at := -1
	for i, s := range segs {
		if s == "BTtoMQTT" {
			at = i
		}
	}
	if at < 0 {
		return ignored("")
	}
	r := Result{Device: strings.Join(segs[at+1:], "/")}
	o, err := parseObject(payload)
	if err != nil {
		return r.fail("%w", err)
	}
	if r.Device == "" {
		id, _ := o["id"].(string)
		r.Device = strings.ToUpper(strings.ReplaceAll(id, ":", ""))
		if r.Device == "" {
			return r.fail("no device: the topic ends in BTtoMQTT and the payload has no id")
		}
	}
	d.applyJSON(&r, o)
	d.applyBuiltins(&r, o, theengsNames, "")
	return r
}
