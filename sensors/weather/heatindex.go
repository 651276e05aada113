package weather

import "math"

// HeatIndex is the NWS heat index in °C of air at t °C and rh %, as the
// Weather Prediction Center gives it (wpc.ncep.noaa.gov/html/
// heatindex_equation.shtml) and weewx computes it (heatindexF, algorithm
// "new"): Steadman's simple formula, averaged with the temperature; where
// that is 80 °F or more, Rothfusz's regression, less an adjustment for
// RH < 13 % between 80 and 112 °F, plus one for RH > 85 % between 80 and
// 87 °F. At 40 °F and below it is the temperature itself.
//
// The high-humidity adjustment is why the value departs from the NWS
// chart (Steadman's own table) at 80–86 °F above 85 %: at 80 °F and 100 %
// the chart says 87 °F, the regression 87.2 and the adjusted value 89.3.
// The WPC's algorithm, and weewx, apply it.
func HeatIndex(t, rh float64) float64 {
	if cToF(t) <= 40 {
		return t
	}
	return fToC(heatIndexF(cToF(t), rh))
}

func heatIndexF(t, rh float64) float64 {
	if t <= 40 {
		return t
	}
	hi := 0.5 * (t + 61 + (t-68)*1.2 + rh*0.094)
	if (hi+t)/2 < 80 {
		return hi
	}
	hi = -42.379 + 2.04901523*t + 10.14333127*rh - 0.22475541*t*rh - 6.83783e-3*t*t -
		5.481717e-2*rh*rh + 1.22874e-3*t*t*rh + 8.5282e-4*t*rh*rh - 1.99e-6*t*t*rh*rh
	switch {
	case rh < 13 && t > 80 && t < 112:
		hi -= (13 - rh) / 4 * math.Sqrt((17-math.Abs(t-95))/17)
	case rh > 85 && t >= 80 && t < 87:
		hi += (rh - 85) / 10 * (87 - t) / 5
	}
	return hi
}

func cToF(c float64) float64 { return c*9/5 + 32 }
func fToC(f float64) float64 { return (f - 32) * 5 / 9 }
