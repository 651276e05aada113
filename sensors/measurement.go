package sensors

import (
	"fmt"
	"math"
	"strings"
)

// Measurement names a quantity as it appears in the get_climate structure.
// The names are those of Netatmo's weather station API (Temperature, CO2,
// sum_rain_24 …), which the get_climate structure follows, so their mixed
// case is deliberate.
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

	// The weather station's: wind by Netatmo's names (km/h, and degrees
	// the wind comes from, clockwise from north), sun, rain intensity,
	// the garden's sensors and lightning.
	WindStrength      Measurement = "WindStrength"      // km/h, the mean over the station's interval
	WindAngle         Measurement = "WindAngle"         // degrees, where the wind comes from
	GustStrength      Measurement = "GustStrength"      // km/h, the strongest gust of the interval
	GustAngle         Measurement = "GustAngle"         // degrees, of that gust
	SolarRadiation    Measurement = "SolarRadiation"    // W/m², global irradiance on the horizontal
	UV                Measurement = "UV"                // UV index (WHO)
	RainRate          Measurement = "RainRate"          // mm/h
	SoilMoisture      Measurement = "SoilMoisture"      // % volumetric water content
	LeafWetness       Measurement = "LeafWetness"       // %
	Leak              Measurement = "Leak"              // 1 while the sensor is wet, else 0
	Lightning         Measurement = "Lightning"         // strikes detected in the interval ending at the reading's time
	LightningDistance Measurement = "LightningDistance" // km to the latest strike, at the strike's time
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
	// Direction values are angles in degrees (the wind's): a mean of them
	// is the direction of the mean of their unit vectors, so that 350°
	// and 10° average to 0°, not 180°, and a low and high say nothing.
	Direction
)

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
		return fmt.Errorf("%s: %s is outside %g…%g", m, strings.TrimSpace(fmt.Sprintf("%g %s", v, info.Unit)), info.Min, info.Max)
	}
	return nil
}
