package weather

import "math"

// ApparentTemperature is the Australian Bureau of Meteorology's apparent
// temperature in °C, "feels like" in the shade with the wind (Steadman,
// 1994; bom.gov.au/info/thermal_stress, and weewx's apptempC), of air at
// t °C and rh % with a wind of ws m/s at 10 m:
//
//	e  = rh/100 · 6.105 · exp(17.27·t / (237.7 + t))   (hPa)
//	AT = t + 0.33·e − 0.70·ws − 4.00
func ApparentTemperature(t, rh, ws float64) float64 {
	e := rh / 100 * 6.105 * math.Exp(17.27*t/(237.7+t))
	return t + 0.33*e - 0.70*ws - 4.00
}
