package sensors

import "math"

// SeaLevelPressure reduces the station pressure p (hPa) measured at
// altitude h (metres) to sea level with the barometric formula of the
// International Standard Atmosphere (15 °C and 1013.25 hPa at sea level,
// temperature falling 6.5 K per km):
//
//	p₀ = p · (1 − 0.0065 · h / 288.15)^−5.2559
//
// It is what weather stations without an outdoor thermometer use: at 120 m
// it adds about 14.3 hPa to 1000 hPa. Reducing with the indoor temperature
// would be worse, not better; the ISA's error is a few tenths of a hPa at
// the altitudes of houses. The hub's own sensors (package hw) and the MQTT
// devices that report only the station's pressure share it, so that both
// kinds of zone agree.
func SeaLevelPressure(p, h float64) float64 {
	return p * math.Pow(1-0.0065*h/288.15, -5.2559)
}
