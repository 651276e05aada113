package sensors

import (
	"fmt"
	"strings"
)

// A Conversion turns a value in one unit, written any of the ways in
// Spellings, into the catalogue unit of its measurement.
type Conversion struct {
	Spellings []string
	To        func(float64) (float64, error)
}

// Conversion factors to the catalogue units.
const (
	hPaPerMmHg = 1.33322387415 // 1 mmHg (torr, near enough) in hPa
	hPaPerInHg = 33.8638866667 // 1 inHg at 0 °C in hPa
	mmPerInch  = 25.4
	kmPerMile  = 1.609344 // the international mile, exactly
	kmPerNM    = 1.852    // the nautical mile, exactly
)

func same(v float64) (float64, error) { return v, nil }

func times(f float64) func(float64) (float64, error) {
	return func(v float64) (float64, error) { return v * f, nil }
}

// The units of the catalogue, each with the spellings devices use.
var (
	temperatureUnits = []Conversion{
		{[]string{"°C", "celsius"}, same},
		{[]string{"°F", "fahrenheit"}, func(v float64) (float64, error) { return (v - 32) * 5 / 9, nil }},
		{[]string{"K", "kelvin"}, func(v float64) (float64, error) { return v - 273.15, nil }},
	}
	pressureUnits = []Conversion{
		{[]string{"hPa", "mbar", "mb"}, same},
		{[]string{"Pa"}, times(0.01)},
		{[]string{"kPa"}, times(10)},
		{[]string{"mmHg", "torr"}, times(hPaPerMmHg)},
		{[]string{"inHg"}, times(hPaPerInHg)},
	}
	rainUnits = []Conversion{
		{[]string{"mm"}, same},
		{[]string{"cm"}, times(10)},
		{[]string{"in", "inch"}, times(mmPerInch)},
	}
	voltageUnits = []Conversion{{[]string{"mV"}, same}, {[]string{"V"}, times(1000)}}
	percentUnits = []Conversion{{[]string{"%"}, same}}
	ppmUnits     = []Conversion{{[]string{"ppm"}, same}}
	decibelUnits = []Conversion{{[]string{"dB", "dBA"}, same}}
	// µg/m³ with the micro sign (U+00B5, the catalogue's and Home
	// Assistant's legacy spelling), with the Greek mu (U+03BC, Home
	// Assistant's since 2025.9, which still takes the micro sign), and in
	// ASCII.
	massConcentrationUnits = []Conversion{{[]string{"µg/m³", "μg/m³", "µg/m3", "μg/m3", "ug/m3", "ug/m³"}, same}}
	indexUnits             = []Conversion{{[]string{"index"}, same}}

	speedUnits = []Conversion{
		{[]string{"km/h", "kmh", "kph"}, same},
		{[]string{"m/s", "mps"}, times(3.6)},
		{[]string{"mph", "mi/h"}, times(kmPerMile)},
		{[]string{"kn", "kt", "knots"}, times(kmPerNM)},
	}
	angleUnits      = []Conversion{{[]string{"°", "deg", "degrees"}, same}}
	irradianceUnits = []Conversion{{[]string{"W/m²", "W/m2"}, same}}
	rateUnits       = []Conversion{{[]string{"mm/h", "mm/hr"}, same}, {[]string{"cm/h", "cm/hr"}, times(10)}, {[]string{"in/h", "in/hr"}, times(mmPerInch)}}
	distanceUnits   = []Conversion{{[]string{"km"}, same}, {[]string{"mi", "miles"}, times(kmPerMile)}}
	countUnits      = []Conversion{{[]string{"strikes", "count"}, same}}
	stateUnits      = []Conversion{{[]string{"state"}, same}}
)

// signalUnits map a radio signal onto m's Netatmo scale with the
// conversions of signal.go, the same as for the hub's own Wi-Fi.
func signalUnits(m Measurement) []Conversion {
	return []Conversion{
		{[]string{"dBm"}, SignalFromDBm},
		{[]string{"lqi"}, func(v float64) (float64, error) { return SignalFromLQI(m, v) }},
		{[]string{"%"}, SignalFromPercent},
	}
}

// Convert turns v, in unit, into the catalogue unit of m. An empty unit
// means v already is in it. Units are matched without case and without a
// degree sign: "°F", "F" and "degF" are the same.
func (m Measurement) Convert(v float64, unit string) (float64, error) {
	info, ok := catalogue[m]
	if !ok {
		return 0, fmt.Errorf("unknown measurement %q", string(m))
	}
	u := normUnit(unit)
	if u == "" || u == normUnit(info.Unit) {
		return v, nil
	}
	var known []string
	if info.Unit != "" && (len(info.Units) == 0 || info.Units[0].Spellings[0] != info.Unit) {
		known = append(known, info.Unit)
	}
	for _, c := range info.Units {
		for _, s := range c.Spellings {
			if normUnit(s) == u {
				return c.To(v)
			}
		}
		known = append(known, c.Spellings[0])
	}
	return 0, fmt.Errorf("unknown unit %q for %s: want %s or none", unit, m, strings.Join(known, ", "))
}

// normUnit is how units are compared: lower case, without a leading
// degree sign or "deg".
func normUnit(unit string) string {
	u := strings.ToLower(strings.TrimSpace(unit))
	return strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(u, "°"), "º"), "deg")
}
