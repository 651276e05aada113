package publish

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/climated/climated/sensors"
)

// sensorDef is how Home Assistant shows one key of a zone.
type sensorDef struct {
	name        string
	deviceClass string
	unit        string
	stateClass  string
	icon        string
	precision   int  // suggested display precision; -1 none
	diagnostic  bool // about the device, not the room
	timestamp   bool // a Unix time, shown as a date
	enum        bool // a trend word
	binary      bool // a binary_sensor: on while the value is 1
}

// haSensor is how Home Assistant shows key: a measurement as its catalogue
// entry says (sensors.Info.HA), a derived key as derivedSensors does; keys
// that are neither are not announced. Home Assistant gets at most tenths:
// rain's thousandths are its gauge's resolution, not a dashboard's digits.
func haSensor(key string) (sensorDef, bool) {
	if info, ok := sensors.Lookup(sensors.Measurement(key)); ok {
		return sensorDef{name: info.HA.Name, deviceClass: info.HA.DeviceClass, unit: info.Unit,
			stateClass: info.HA.StateClass, icon: info.HA.Icon, precision: min(info.Decimals, 1),
			diagnostic: info.Kind == sensors.Health, binary: info.HA.Binary}, true
	}
	def, ok := derivedSensors[key]
	return def, ok
}

// derivedSensors are the derived keys of the get_climate structure that
// Home Assistant gets as sensors.
var derivedSensors = map[string]sensorDef{
	sensors.KeyMinTemp:       {name: "Minimum temperature today", deviceClass: "temperature", unit: "°C", stateClass: "measurement", precision: 1},
	sensors.KeyMaxTemp:       {name: "Maximum temperature today", deviceClass: "temperature", unit: "°C", stateClass: "measurement", precision: 1},
	sensors.KeyDateMinTemp:   {name: "Time of minimum temperature", deviceClass: "timestamp", precision: -1, timestamp: true},
	sensors.KeyDateMaxTemp:   {name: "Time of maximum temperature", deviceClass: "timestamp", precision: -1, timestamp: true},
	sensors.KeyTempTrend:     {name: "Temperature trend", deviceClass: "enum", precision: -1, enum: true},
	sensors.KeyPressureTrend: {name: "Pressure trend", deviceClass: "enum", precision: -1, enum: true},
	sensors.KeySumRain1:      {name: "Rain, last hour", deviceClass: "precipitation", unit: "mm", stateClass: "measurement", precision: 1},
	sensors.KeySumRain24:     {name: "Rain, last 24 hours", deviceClass: "precipitation", unit: "mm", stateClass: "measurement", precision: 1},
	sensors.KeyWhen:          {name: "Last update", deviceClass: "timestamp", precision: -1, diagnostic: true, timestamp: true},

	sensors.KeyMaxWindStr:     {name: "Strongest gust today", deviceClass: "wind_speed", unit: "km/h", stateClass: "measurement", precision: 0},
	sensors.KeyMaxWindAngle:   {name: "Direction of the strongest gust today", deviceClass: "wind_direction", unit: "°", stateClass: "measurement_angle", precision: 0},
	sensors.KeyDateMaxWindStr: {name: "Time of the strongest gust today", deviceClass: "timestamp", precision: -1, timestamp: true},
	sensors.KeySumLightning1:  {name: "Lightning strikes, last hour", stateClass: "measurement", icon: "mdi:flash", precision: 0},
	sensors.KeySumLightning24: {name: "Lightning strikes, last 24 hours", stateClass: "measurement", icon: "mdi:flash", precision: 0},
	sensors.KeyFeelsLike:      {name: "Feels like", deviceClass: "temperature", unit: "°C", stateClass: "measurement", precision: 1},
	sensors.KeyHeatIndex:      {name: "Heat index", deviceClass: "temperature", unit: "°C", stateClass: "measurement", precision: 1},
	sensors.KeyWindChill:      {name: "Wind chill", deviceClass: "temperature", unit: "°C", stateClass: "measurement", precision: 1},
	sensors.KeyHumidex:        {name: "Humidex", deviceClass: "temperature", unit: "°C", stateClass: "measurement", precision: 1},
	sensors.KeyDewPoint:       {name: "Dew point", deviceClass: "temperature", unit: "°C", stateClass: "measurement", precision: 1},
}

// haConfig is a Home Assistant MQTT discovery message for one sensor.
type haConfig struct {
	Name                *string  `json:"name"` // null: the device's name
	UniqueID            string   `json:"unique_id"`
	StateTopic          string   `json:"state_topic"`
	ValueTemplate       string   `json:"value_template"`
	DeviceClass         string   `json:"device_class,omitempty"`
	UnitOfMeasurement   string   `json:"unit_of_measurement,omitempty"`
	StateClass          string   `json:"state_class,omitempty"`
	Icon                string   `json:"icon,omitempty"`
	Precision           *int     `json:"suggested_display_precision,omitempty"`
	Options             []string `json:"options,omitempty"`
	EntityCategory      string   `json:"entity_category,omitempty"`
	AvailabilityTopic   string   `json:"availability_topic"`
	PayloadAvailable    string   `json:"payload_available"`
	PayloadNotAvailable string   `json:"payload_not_available"`
	Device              haDevice `json:"device"`
	Origin              haOrigin `json:"origin"`
}

type haDevice struct {
	Identifiers   []string `json:"identifiers"`
	Name          string   `json:"name"`
	Manufacturer  string   `json:"manufacturer"`
	Model         string   `json:"model"`
	SWVersion     string   `json:"sw_version,omitempty"`
	SuggestedArea string   `json:"suggested_area,omitempty"`
}

type haOrigin struct {
	Name       string `json:"name"`
	SWVersion  string `json:"sw_version,omitempty"`
	SupportURL string `json:"support_url"`
}

const supportURL = "https://github.com/climated/climated"

// discoveryTopic is where key of the zone with slug zs is announced: a
// sensor, or a binary_sensor (a leak).
func (p *Publisher) discoveryTopic(zs, key string) string {
	component := "/sensor/"
	if def, _ := haSensor(key); def.binary {
		component = "/binary_sensor/"
	}
	return p.opts.DiscoveryPrefix + component + p.node + "/" + zs + "_" + slug(key) + "/config"
}

// discoveryPayload announces key of zone (slug zs) to Home Assistant.
func (p *Publisher) discoveryPayload(zone, zs, key string, def sensorDef) []byte {
	tmpl := "{{ value_json." + key + " }}"
	switch {
	case def.timestamp:
		tmpl = "{{ as_datetime(value_json." + key + ") }}"
	case def.binary:
		tmpl = "{{ 'ON' if value_json." + key + " == 1 else 'OFF' }}"
		def.unit, def.stateClass, def.precision = "", "", -1
	}
	c := haConfig{
		Name:                entityName(zone, def.name),
		UniqueID:            p.node + "_" + zs + "_" + slug(key),
		StateTopic:          p.stateTopic(zs),
		ValueTemplate:       tmpl,
		DeviceClass:         def.deviceClass,
		UnitOfMeasurement:   def.unit,
		StateClass:          def.stateClass,
		Icon:                def.icon,
		AvailabilityTopic:   p.client.AvailabilityTopic(),
		PayloadAvailable:    "online",
		PayloadNotAvailable: "offline",
		Device: haDevice{
			Identifiers:   []string{p.node + "_" + zs},
			Name:          zone,
			Manufacturer:  "climated",
			Model:         "climated zone",
			SWVersion:     p.opts.Version,
			SuggestedArea: zone,
		},
		Origin: haOrigin{Name: "climated", SWVersion: p.opts.Version, SupportURL: supportURL},
	}
	if def.precision >= 0 {
		c.Precision = &def.precision
	}
	if def.enum {
		c.Options = []string{"up", "down", "stable"}
	}
	if def.diagnostic {
		c.EntityCategory = "diagnostic"
	}
	data, _ := json.Marshal(c) // strings and numbers only: cannot fail
	return data
}

// slug makes a topic level and id part: lower-case letters, digits and
// single underscores.
func slug(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

// entityName is name as Home Assistant wants it for an entity of the zone's
// device: not starting with the device's name, which HA strips with a
// warning ("Rain, last hour" on the device "Rain" is "Last hour"); nil,
// the device's own name, when nothing else is left.
func entityName(zone, name string) *string {
	z := strings.TrimSpace(zone)
	if z == "" || len(name) < len(z) || !strings.EqualFold(name[:len(z)], z) {
		return &name
	}
	rest := strings.TrimLeft(name[len(z):], " ,:;-–")
	if rest == "" {
		return nil
	}
	r, size := utf8.DecodeRuneInString(rest)
	rest = string(unicode.ToUpper(r)) + rest[size:]
	return &rest
}
