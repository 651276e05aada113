package decode

import (
	"fmt"
	"strings"

	"github.com/climated/climated/sensors"
)

// Conversion factors to the catalogue units.
const (
	hPaPerMmHg = 1.33322387415 // 1 mmHg (torr, near enough) in hPa
	hPaPerInHg = 33.8638866667 // 1 inHg at 0 °C in hPa
	mmPerInch  = 25.4
)

// Convert turns v, in unit, into the catalogue unit of m. An empty unit
// means v already is in it. Units are matched without case and without a
// degree sign: "°F", "F" and "degF" are the same.
func Convert(m sensors.Measurement, v float64, unit string) (float64, error) {
	u := strings.ToLower(strings.TrimSpace(unit))
	u = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(u, "°"), "º"), "deg")
	switch m {
	case sensors.Temperature:
		switch u {
		case "", "c", "celsius":
			return v, nil
		case "f", "fahrenheit":
			return (v - 32) * 5 / 9, nil
		case "k", "kelvin":
			return v - 273.15, nil
		}
	case sensors.Pressure, sensors.AbsolutePressure:
		switch u {
		case "", "hpa", "mbar", "mb":
			return v, nil
		case "pa":
			return v / 100, nil
		case "kpa":
			return v * 10, nil
		case "mmhg", "torr":
			return v * hPaPerMmHg, nil
		case "inhg":
			return v * hPaPerInHg, nil
		}
	case sensors.Rain:
		switch u {
		case "", "mm":
			return v, nil
		case "cm":
			return v * 10, nil
		case "in", "inch":
			return v * mmPerInch, nil
		}
	case sensors.BatteryVoltage:
		switch u {
		case "", "mv":
			return v, nil
		case "v":
			return v * 1000, nil
		}
	case sensors.Humidity, sensors.BatteryPercent:
		if u == "" || u == "%" {
			return v, nil
		}
	case sensors.CO2:
		if u == "" || u == "ppm" {
			return v, nil
		}
	case sensors.Noise:
		if u == "" || u == "db" || u == "dba" {
			return v, nil
		}
	case sensors.RFStatus, sensors.WiFiStatus:
		return signal(m, v, u)
	case sensors.PM1, sensors.PM25, sensors.PM4, sensors.PM10:
		switch u {
		case "", "µg/m³", "μg/m³", "ug/m3", "µg/m3", "μg/m3", "ug/m³":
			return v, nil
		}
	case sensors.VOCIndex, sensors.NOxIndex:
		if u == "" || u == "index" {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown unit %q for %s", unit, m)
}

// signal maps a radio signal onto a Netatmo scale with the catalogue's
// one conversion, the same as for the hub's own Wi-Fi (sensors.SignalFromDBm).
func signal(m sensors.Measurement, v float64, u string) (float64, error) {
	switch u {
	case "":
		return v, nil
	case "dbm":
		return sensors.SignalFromDBm(v)
	case "lqi":
		return sensors.SignalFromLQI(m, v)
	case "%":
		return sensors.SignalFromPercent(v)
	}
	return 0, fmt.Errorf("unknown unit %q for %s: want dBm, lqi, %% or none", u, m)
}
