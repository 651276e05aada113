package alerts

import "github.com/climated/climated/sensors/weather"

// FRsi is the temperature factor of the inner surface of an outside wall
// that DIN 4108-2 (and EN ISO 13788 in its method) requires at thermal
// bridges so that mould does not grow: f_Rsi = (θsi − θe)/(θi − θe) ≥ 0.70.
// The condensation rule takes that worst allowed wall as the room's
// coldest surface.
const FRsi = 0.7

// DewPoint is the dew point in °C of air at t °C and rh % relative
// humidity (the Magnus formula's inverse, weather.DewPoint).
func DewPoint(t, rh float64) float64 { return weather.DewPoint(t, rh) }

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
