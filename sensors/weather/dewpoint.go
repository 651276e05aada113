package weather

import "math"

// Magnus coefficients over water of the WMO's Guide to Instruments and
// Methods of Observation (WMO-No. 8, Annex 4.B): e_s(t) = 6.112 hPa ·
// exp(17.62·t / (243.12 °C + t)), within 0.3 % of the exact curve from −45
// to 60 °C. The demo house (sensors/demo/weather.go) uses the same.
const (
	magnusA = 17.62
	magnusB = 243.12 // °C
)

// DewPoint is the dew point in °C of air at t °C and rh % relative
// humidity, by inverting the Magnus formula:
//
//	γ = ln(rh/100) + a·t/(b + t),   Td = b·γ / (a − γ)
//
// rh is clamped to 0.1 % so that dry air does not give −∞.
func DewPoint(t, rh float64) float64 {
	g := math.Log(math.Max(rh, 0.1)/100) + magnusA*t/(magnusB+t)
	return magnusB * g / (magnusA - g)
}
