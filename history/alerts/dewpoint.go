package alerts

import "math"

// Magnus coefficients over water of the WMO's Guide to Instruments and
// Methods of Observation (WMO-No. 8, Annex 4.B), the ones the demo house
// uses (sensors/demo/weather.go): e_s(t) = 6.112 hPa · exp(17.62·t / (243.12 °C + t)),
// within 0.3 % of the exact curve from −45 to 60 °C.
const (
	magnusA = 17.62
	magnusB = 243.12 // °C
)

// FRsi is the temperature factor of the inner surface of an outside wall
// that DIN 4108-2 (and EN ISO 13788 in its method) requires at thermal
// bridges so that mould does not grow: f_Rsi = (θsi − θe)/(θi − θe) ≥ 0.70.
// The condensation rule takes that worst allowed wall as the room's
// coldest surface.
const FRsi = 0.7

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

// SurfaceTemperature is the estimated temperature of the inner surface of
// an outside wall with the temperature factor FRsi, in a room at inside °C
// with outside °C outdoors: θsi = θe + f_Rsi · (θi − θe).
func SurfaceTemperature(inside, outside float64) float64 {
	return outside + FRsi*(inside-outside)
}

// CondensationMargin is how far, in °C, the wall's estimated surface
// temperature is above the room's dew point; at 0 or below water
// condenses on it.
func CondensationMargin(inside, rh, outside float64) float64 {
	return SurfaceTemperature(inside, outside) - DewPoint(inside, rh)
}
