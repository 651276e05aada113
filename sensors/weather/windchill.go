package weather

import "math"

// WindChill is the wind chill in °C at t °C and a wind of v m/s (at 10 m),
// by the formula the NWS and Environment Canada adopted in 2001
// (weather.gov/safety/cold-wind-chill-chart):
//
//	WC = 35.74 + 0.6215·T − 35.75·V^0.16 + 0.4275·T·V^0.16   (°F, mph)
//
// It applies below 50 °F (10 °C) and above 3 mph (1.34 m/s); elsewhere it
// is the temperature itself, as weewx's windchillF has it.
func WindChill(t, v float64) float64 {
	tf, mph := cToF(t), v/mphInMS
	if tf >= 50 || mph <= 3 {
		return t
	}
	p := pow016(mph)
	return fToC(35.74 + 0.6215*tf - 35.75*p + 0.4275*tf*p)
}

// mphInMS is one mile an hour in m/s: 1609.344 m / 3600 s.
const mphInMS = 1609.344 / 3600

// pow016 is x^0.16, the wind's exponent in the wind chill.
func pow016(x float64) float64 { return math.Pow(x, 0.16) }
