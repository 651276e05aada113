package weather

import "math"

// MeanDirection is the mean of directions in degrees (0–360, from north,
// clockwise) weighted by w (nil: equal weights; for wind, its speeds, as
// weewx's vector average does), averaged as vectors: 350° and 10° average
// to 0°, not 180°. ok is false when the vectors cancel out (or there are
// none), where no direction is the mean.
func MeanDirection(dirs, w []float64) (mean float64, ok bool) {
	var x, y, total float64
	for i, d := range dirs {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		x += wi * math.Sin(rad(d))
		y += wi * math.Cos(rad(d))
		total += math.Abs(wi)
	}
	if total == 0 || math.Hypot(x, y) < 1e-9*total {
		return 0, false
	}
	return math.Mod(deg(math.Atan2(x, y))+360, 360), true
}

// compassPoints are the 16 points of the compass, clockwise from north.
var compassPoints = [16]string{"N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"}

// Compass is the nearest of the 16 points of the compass to a direction
// in degrees from north: 0° and 359° are N, 100° is E.
func Compass(deg float64) string {
	i := int(math.Round(math.Mod(math.Mod(deg, 360)+360, 360)/22.5)) % 16
	return compassPoints[i]
}
