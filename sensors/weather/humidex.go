package weather

import "math"

// Humidex is Environment Canada's humidex of air at t °C with a dew point
// of td °C (Masterton and Richardson, 1979, as weewx's humidexC has it):
//
//	e = 6.11 · exp(5417.7530 · (1/273.16 − 1/(273.15 + Td)))   (hPa)
//	H = T + 0.5555 · (e − 10)
//
// Where the vapour pressure is 10 hPa or less it is the temperature.
func Humidex(t, td float64) float64 {
	e := 6.11 * math.Exp(5417.7530*(1/273.16-1/(273.15+td)))
	if h := 0.5555 * (e - 10); h > 0 {
		return t + h
	}
	return t
}
