package decode

import (
	"strings"

	"github.com/climated/climated/sensors"
)

// zigbee2mqtt decodes zigbee2mqtt device state: <base>/<friendly name> with
// a JSON object, and <base>/<friendly name>/availability with
// {"state":"online"} (2.0 and later) or a plain online/offline (before).
// Friendly names may contain slashes. <base>/bridge/… and the /set, /get
// command topics are ignored.
type zigbee2mqtt struct{ fieldDecoder }

var zigbee2mqttNames = []builtin{
	{"temperature", sensors.Temperature, ""},
	{"humidity", sensors.Humidity, ""},
	{"pressure", sensors.AbsolutePressure, ""}, // the station's, as the sensors measure it
	{"co2", sensors.CO2, ""},
	// Particulate matter in µg/m³ (zigbee-herdsman-converters' pm25 and
	// pm10 exposes; pm1 and pm4 on the Sensirion-based devices), and
	// Sensirion's indices (voc_index on IKEA's VINDSTYRKA). A plain "voc"
	// is a concentration (µg/m³ or ppb, Aqara's TVOC sensor), not the
	// index, and is not read.
	{"pm1", sensors.PM1, ""},
	{"pm25", sensors.PM25, ""},
	{"pm4", sensors.PM4, ""},
	{"pm10", sensors.PM10, ""},
	{"voc_index", sensors.VOCIndex, ""},
	{"nox_index", sensors.NOxIndex, ""},
	{"battery", sensors.BatteryPercent, ""},
	{"voltage", sensors.BatteryVoltage, "mV"},
	{"linkquality", sensors.RFStatus, "lqi"},
}

func (*zigbee2mqtt) Format() string { return Zigbee2MQTT }

func (d *zigbee2mqtt) Decode(topic string, payload []byte) Result {
	segs := strings.Split(topic, "/")
	if len(segs) < 2 || segs[1] == "bridge" {
		return ignored("")
	}
	name := segs[1:]
	switch name[len(name)-1] {
	case "availability":
		return availabilityOf(strings.Join(name[:len(name)-1], "/"), payload)
	case "set", "get":
		return ignored(strings.Join(name[:len(name)-1], "/"))
	}
	r := Result{Device: strings.Join(name, "/")}
	o, err := parseObject(payload)
	if err != nil {
		return r.fail("%w", err)
	}
	d.applyJSON(&r, o)
	d.applyBuiltins(&r, o, zigbee2mqttNames, "")
	return r
}
