package decode

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// The payload formats, as named in the configuration.
const (
	Zigbee2MQTT = "zigbee2mqtt"
	Tasmota     = "tasmota"
	ESPHome     = "esphome"
	Shelly      = "shelly"
	Theengs     = "theengs"
	RTL433      = "rtl_433"
	Generic     = "generic"
	Climated    = "climated"
)

// Availability is what a payload says about its device being reachable.
type Availability int

const (
	AvailabilityUnknown Availability = iota // the payload says nothing about it
	Online
	Offline
)

func (a Availability) String() string {
	switch a {
	case Online:
		return "online"
	case Offline:
		return "offline"
	}
	return "unknown"
}

// Value is one measurement taken from a payload, already in the unit of
// the sensors catalogue and within its valid range.
type Value struct {
	Measurement sensors.Measurement
	Value       float64
	// Counter marks a cumulative total (rain gauges count up from when they
	// were powered on); the ingest turns differences into Rain amounts.
	Counter bool
	// Simulated (climated only) marks a value the other hub's demo house
	// simulated (KeySimulated): the ingest keeps it simulated.
	Simulated bool
	// Probe names the sensor within the device when a device has several
	// of a kind (Tasmota's DS18B20-2, rtl_433's temperature_1_C as "1",
	// a Shelly add-on's ext_temperature/1 as "1"): "<device>/<probe>" can
	// then be given a zone of its own. Empty means the device's own value.
	Probe string
	// Main marks a probe's value that is also the device's own: the first
	// probe (in the device's order) of its measurement.
	Main bool
	// Time (climated only) is when this value was measured, where the
	// state gives each measurement its own time; zero means Result.Time.
	Time time.Time
	// Since (climated amounts only), when not zero, says Value is the
	// other hub's total of an amount over (Since, Time]: the ingest
	// records only what of it this hub has not recorded yet.
	Since time.Time
}

// Result is what one message says.
type Result struct {
	// Device names the device within its format: a zigbee2mqtt friendly
	// name, a Tasmota topic, an ESPHome node, a Shelly id, a BLE MAC, an
	// rtl_433 model/channel/id, the topic (generic) or a zone (climated).
	Device string
	Values []Value
	// Time is when the values were measured, where the payload says so in
	// a way worth trusting (format climated); zero means "when received".
	Time         time.Time
	Availability Availability
	// Ignored says the topic carries nothing climated uses (bridge logs,
	// device info, other components); it is not an error.
	Ignored bool
	// Err says the whole payload was unusable (not JSON, wrong shape).
	Err error
	// Problems name the values that were dropped and why; the other
	// values of the payload are kept.
	Problems []error
	// RainState (climated only) is the zone's Rain with its hourly and
	// daily sums, as sent: a Rain amount is new only when it changed.
	RainState string
	// Hub (climated only) is the topic prefix of another hub whose
	// availability the message gives: it concerns every zone the hub's
	// states under that prefix fed, and Device is empty.
	Hub string
}

// Field maps one value of a payload onto a measurement. The generic format
// is made of fields only; in the other formats fields add to or override
// the built-in names.
type Field struct {
	// Measurement is the climated name, a key of the catalogue
	// (sensors.Catalogue): Temperature, Humidity, PM25, battery_percent …
	Measurement sensors.Measurement `yaml:"measurement"`
	// Path locates the value: a dotted JSON path ("BME280.Temperature",
	// "sensors.0.value") for JSON payloads, the sensor name for esphome,
	// and empty for a payload that is a plain number.
	Path string `yaml:"path"`
	// Unit is the unit the device sends (°F, inHg, V, dBm, lqi …); empty
	// means the catalogue unit of the measurement.
	Unit string `yaml:"unit"`
	// Counter marks a cumulative rain total: only its increases count.
	Counter bool `yaml:"counter"`
}

// Validate reports what is wrong with f, naming the field.
func (f Field) Validate() error {
	if _, ok := sensors.Lookup(f.Measurement); !ok {
		return fmt.Errorf("measurement %q: not one of %s", string(f.Measurement), measurementList())
	}
	if _, err := Convert(f.Measurement, 0, f.Unit); err != nil {
		return fmt.Errorf("unit: %w", err)
	}
	if f.Counter && f.Measurement != sensors.Rain {
		return fmt.Errorf("counter: only Rain can be a counter, not %s", f.Measurement)
	}
	for _, seg := range strings.Split(f.Path, ".") {
		if f.Path != "" && seg == "" {
			return fmt.Errorf("path %q: empty segment", f.Path)
		}
	}
	return nil
}

func measurementList() string {
	ms := sensors.Measurements()
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// Decoder turns the messages of one format into values. Decode never
// panics and never returns a value outside the catalogue's range.
type Decoder interface {
	Format() string
	Decode(topic string, payload []byte) Result
}

// Formats lists the format names New accepts.
func Formats() []string {
	fs := []string{Zigbee2MQTT, Tasmota, ESPHome, Shelly, Theengs, RTL433, Generic, Climated}
	sort.Strings(fs)
	return fs
}

// ErrUnknownFormat is returned by New for a format it does not know.
var ErrUnknownFormat = errors.New("unknown format")

// New returns the decoder of format, with fields added to (or, for the
// generic format, making up) its mapping.
func New(format string, fields []Field) (Decoder, error) {
	for i, f := range fields {
		if err := f.Validate(); err != nil {
			return nil, fmt.Errorf("fields[%d]: %w", i, err)
		}
		if f.Path == "" && format != Generic {
			// Only a generic payload can be the value itself.
			return nil, fmt.Errorf("fields[%d]: path: missing; format %s needs the key or sensor name", i, format)
		}
	}
	base := fieldDecoder{fields: fields}
	switch format {
	case Zigbee2MQTT:
		return &zigbee2mqtt{base}, nil
	case Tasmota:
		return &tasmota{base}, nil
	case ESPHome:
		return &esphome{base}, nil
	case Shelly:
		return &shelly{base}, nil
	case Theengs:
		return &theengs{base}, nil
	case RTL433:
		return &rtl433{base}, nil
	case Generic:
		if len(fields) == 0 {
			return nil, errors.New("format generic needs at least one entry in fields")
		}
		return &generic{base}, nil
	case Climated:
		return &climated{base}, nil
	}
	return nil, fmt.Errorf("%w %q: want one of %s", ErrUnknownFormat, format, strings.Join(Formats(), ", "))
}

// add converts v from unit, checks it against the catalogue and keeps it,
// or records why not. Every value of every decoder passes through here.
func (r *Result) add(m sensors.Measurement, v float64, unit, field string) {
	r.addProbe(m, v, unit, field, "", false)
}

// addProbe is add for a value of one probe of the device.
func (r *Result) addProbe(m sensors.Measurement, v float64, unit, field, probe string, main bool) {
	c, err := Convert(m, v, unit)
	if err == nil {
		err = m.Check(c)
	}
	if err == nil && (math.IsInf(c, 0) || math.IsNaN(c)) {
		err = fmt.Errorf("%s: value is not finite", m)
	}
	if err != nil {
		r.problem(field, err)
		return
	}
	if r.Values == nil {
		// Room for a typical payload's values and a derived one, in one
		// allocation rather than four.
		r.Values = make([]Value, 0, 8)
	}
	r.Values = append(r.Values, Value{Measurement: m, Value: c, Probe: probe, Main: main})
}

// addCounter keeps a cumulative rain total in mm; it need only be finite
// and not negative, since only its increases become readings.
func (r *Result) addCounter(v float64, unit, field string) {
	c, err := Convert(sensors.Rain, v, unit)
	if err == nil && (math.IsNaN(c) || math.IsInf(c, 0) || c < 0) {
		err = fmt.Errorf("rain counter %g mm is not a finite total", c)
	}
	if err != nil {
		r.problem(field, err)
		return
	}
	r.Values = append(r.Values, Value{Measurement: sensors.Rain, Value: c, Counter: true})
}

func (r *Result) problem(field string, err error) {
	r.Problems = append(r.Problems, fmt.Errorf("%s: %w", field, err))
}

// has reports whether r already holds a value of m from probe.
func (r *Result) has(m sensors.Measurement, probe string) bool {
	for _, v := range r.Values {
		if v.Measurement == m && v.Probe == probe {
			return true
		}
	}
	return false
}

// hasMain reports whether r already holds the device's own value of m.
func (r *Result) hasMain(m sensors.Measurement) bool {
	for _, v := range r.Values {
		if v.Measurement == m && (v.Probe == "" || v.Main) {
			return true
		}
	}
	return false
}

// fail marks the whole payload unusable.
func (r Result) fail(format string, args ...any) Result {
	r.Err = fmt.Errorf(format, args...)
	return r
}

func ignored(device string) Result { return Result{Device: device, Ignored: true} }

func errOutside(v float64, want string) error {
	return fmt.Errorf("%g is outside %s", v, want)
}

// idString renders an id or channel, which rtl_433 sends as a number or a
// string, for a device name.
func idString(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		return string(x), nil
	}
	return "", fmt.Errorf("want a number or a string, got %s", kind(v))
}
