package sensors

import (
	"fmt"
	"math"
	"sort"
)

// Measurement names a quantity as it appears in the get_climate structure.
// The names are those of seed 000 (and of Netatmo's weather station API), so
// their mixed case is deliberate.
type Measurement string

// The measurements a source may report. Derived keys (min_temp, temp_trend,
// sum_rain_24 …) are not measurements: history derives them.
const (
	Temperature      Measurement = "Temperature"      // °C
	Humidity         Measurement = "Humidity"         // % relative humidity
	CO2              Measurement = "CO2"              // ppm
	Noise            Measurement = "Noise"            // dB
	Pressure         Measurement = "Pressure"         // hPa, reduced to sea level
	AbsolutePressure Measurement = "AbsolutePressure" // hPa, at the station
	Rain             Measurement = "Rain"             // mm fallen in the interval ending at the reading's time
	BatteryVoltage   Measurement = "battery_vp"       // mV
	BatteryPercent   Measurement = "battery_percent"  // %
	RFStatus         Measurement = "rf_status"        // Netatmo radio scale: 90 low … 60 full (see SignalFromDBm)
	WiFiStatus       Measurement = "wifi_status"      // Netatmo Wi-Fi scale: 86 bad, 71 average, 56 good (see SignalFromDBm)

	// Air quality: particulate matter by size (mass concentration of
	// particles up to 1, 2.5, 4 and 10 µm) and Sensirion's gas indices.
	PM1      Measurement = "PM1"      // µg/m³
	PM25     Measurement = "PM25"     // µg/m³, PM2.5
	PM4      Measurement = "PM4"      // µg/m³
	PM10     Measurement = "PM10"     // µg/m³
	VOCIndex Measurement = "VOCIndex" // Sensirion VOC index, 1…500 (100 = the room's average of the last 24 h)
	NOxIndex Measurement = "NOxIndex" // Sensirion NOx index, 1…500 (1 = the room's usual, clean air)
)

// Kind says how values of a measurement combine over time.
type Kind int

const (
	// Gauge values are instantaneous levels; a later value replaces an
	// earlier one at the same instant.
	Gauge Kind = iota
	// Amount values are quantities per interval (rain in mm); values at the
	// same instant add up and a window's total is their sum.
	Amount
	// Health values describe the device rather than the room (battery,
	// signal); they are gauges that the climate report treats as status.
	Health
)

// Info describes a measurement: its unit, its kind, the number of decimals
// it is shown with, and the range of values a working sensor can report.
type Info struct {
	Name        Measurement
	Unit        string
	Kind        Kind
	Decimals    int
	Min, Max    float64
	Description string
}

var catalogue = map[Measurement]Info{
	Temperature:      {Temperature, "°C", Gauge, 1, -60, 85, "air temperature"},
	Humidity:         {Humidity, "%", Gauge, 0, 0, 100, "relative humidity"},
	CO2:              {CO2, "ppm", Gauge, 0, 0, 10000, "carbon dioxide concentration"},
	Noise:            {Noise, "dB", Gauge, 0, 0, 140, "sound level"},
	Pressure:         {Pressure, "hPa", Gauge, 1, 800, 1100, "pressure reduced to sea level"},
	AbsolutePressure: {AbsolutePressure, "hPa", Gauge, 1, 300, 1100, "pressure at the station"},
	// Rain keeps three decimals, the resolution of the gauges: a tip of
	// 0.2794 mm (the usual tipping bucket) reads 0.279, not 0.3, and
	// Netatmo's gauge reports 0.101 mm steps to the thousandth.
	Rain:           {Rain, "mm", Amount, 3, 0, 500, "rain fallen in the latest interval"},
	BatteryVoltage: {BatteryVoltage, "mV", Health, 0, 0, 10000, "battery voltage of a wireless sensor, as measured (never derived from a level; see sensors/battery.go)"},
	BatteryPercent: {BatteryPercent, "%", Health, 0, 0, 100, "battery level of a wireless sensor, as the device reports it or from its voltage on its chemistry's discharge curve (see sensors/battery.go)"},
	RFStatus:       {RFStatus, "", Health, 0, 0, 120, "radio signal of a wireless sensor, Netatmo scale: the level in dBm without its sign (lower is better: 90 low, 80 medium, 70 high, 60 full)"},
	WiFiStatus:     {WiFiStatus, "", Health, 0, 0, 120, "Wi-Fi signal, Netatmo scale: the level in dBm without its sign (lower is better: 86 bad, 71 average, 56 good)"},
	PM1:            {PM1, "µg/m³", Gauge, 1, 0, 1000, "mass concentration of particles up to 1 µm (PM1)"},
	PM25:           {PM25, "µg/m³", Gauge, 1, 0, 1000, "mass concentration of particles up to 2.5 µm (PM2.5); WHO 2021 guideline: 15 µg/m³ as a 24-hour mean, 5 µg/m³ as an annual mean"},
	PM4:            {PM4, "µg/m³", Gauge, 1, 0, 1000, "mass concentration of particles up to 4 µm (PM4)"},
	PM10:           {PM10, "µg/m³", Gauge, 1, 0, 1000, "mass concentration of particles up to 10 µm (PM10); WHO 2021 guideline: 45 µg/m³ as a 24-hour mean"},
	VOCIndex:       {VOCIndex, "", Gauge, 0, 1, 500, "Sensirion VOC index, 1…500: 100 is the room's average of the last 24 hours, above it more volatile organic compounds than usual (cooking, cleaning, paint), below fewer"},
	NOxIndex:       {NOxIndex, "", Gauge, 0, 1, 500, "Sensirion NOx index, 1…500: 1 is the room's usual clean air, above it nitrogen oxides from combustion (gas cooker, traffic)"},
}

// Lookup returns what is known about m, and whether m is a measurement at all.
func Lookup(m Measurement) (Info, bool) {
	info, ok := catalogue[m]
	return info, ok
}

// Measurements lists every known measurement in a stable order.
func Measurements() []Measurement {
	ms := make([]Measurement, 0, len(catalogue))
	for m := range catalogue {
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i] < ms[j] })
	return ms
}

// Round rounds v to the decimals m is shown with, plus extra decimals
// (means keep one more than single readings). Amounts (rain) take no
// extra decimal: they are shown at the resolution of the gauge that
// measured them, three decimals at most. It never returns -0.
func (m Measurement) Round(v float64, extra int) float64 {
	info := catalogue[m]
	if info.Kind == Amount {
		extra = 0
	}
	p := math.Pow10(info.Decimals + extra)
	r := math.Round(v*p) / p
	if r == 0 {
		return 0
	}
	return r
}

// Check reports whether v is a plausible value of m, with an error that says
// what was wrong.
func (m Measurement) Check(v float64) error {
	info, ok := catalogue[m]
	if !ok {
		return fmt.Errorf("unknown measurement %q", string(m))
	}
	if v != v { // NaN
		return fmt.Errorf("%s: value is not a number", m)
	}
	if v < info.Min || v > info.Max {
		return fmt.Errorf("%s: %g %s is outside %g…%g", m, v, info.Unit, info.Min, info.Max)
	}
	return nil
}
