package sensors

import "sort"

// Info is everything climated knows about a measurement, in one place:
// every consumer (storage, MQTT decoding, Home Assistant discovery, the
// MCP tool descriptions and schemas) reads it here, and TestCatalogue
// holds each of them to it. Adding a measurement is one entry below plus
// the producers that measure it.
type Info struct {
	// Name is the measurement and its key in the get_climate structure.
	Name Measurement
	// Unit is the catalogue unit every value is converted to; "" for a
	// value on a scale of its own (an index, a signal status).
	Unit string
	// Units are the other units a device may send it in, with their
	// conversions (units.go); the catalogue unit is always accepted.
	Units []Conversion
	Kind  Kind
	// Decimals is how precisely a value is shown (Round).
	Decimals int
	// Min and Max bound what a working sensor can report (Check).
	Min, Max float64
	// Resolution is the step values are stored in (history keeps integers
	// of it): finer than any sensor, at least as fine as Decimals.
	Resolution float64
	// Description is the sentence describe_zones gives a model.
	Description string
	// Brief is the words after the key in get_climate's description:
	// the unit and what a model needs to read the value.
	Brief string
	// HA is how Home Assistant's MQTT discovery announces it.
	HA HomeAssistant
}

// HomeAssistant is what Home Assistant's MQTT discovery needs of a
// measurement beyond its unit; Health values are announced as diagnostic.
type HomeAssistant struct {
	Name        string // the entity's name
	DeviceClass string // a sensor device class of Home Assistant; "" for none
	StateClass  string // "measurement" for a level
	Icon        string // an mdi: icon where no device class gives one
	// Binary: announced as a binary_sensor, on while the value is 1 (a
	// leak: Home Assistant's moisture class), with no state class.
	Binary bool
}

// Catalogue lists every measurement in the order the get_climate
// description presents them: the room, the weather, the air, the devices.
func Catalogue() []Info { return append([]Info(nil), entries...) }

// catalogue indexes entries by name.
var catalogue = func() map[Measurement]Info {
	m := make(map[Measurement]Info, len(entries))
	for _, e := range entries {
		m[e.Name] = e
	}
	return m
}()

// Lookup returns what is known about m, and whether m is a measurement at all.
func Lookup(m Measurement) (Info, bool) {
	info, ok := catalogue[m]
	return info, ok
}

// Measurements lists every known measurement in a stable (sorted) order.
func Measurements() []Measurement {
	ms := make([]Measurement, 0, len(catalogue))
	for m := range catalogue {
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i] < ms[j] })
	return ms
}
