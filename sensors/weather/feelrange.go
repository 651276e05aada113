package weather

import "math"

// FeelRange is how the air felt over a span of samples (a day's 5-minute
// means, as weewx derives its daily values from its archive records): the
// lowest and highest apparent temperature, and the highest heat index and
// lowest wind chill where they applied. The zero value is empty; Add
// takes a sample.
type FeelRange struct {
	N                          int // the samples taken
	Min, Max                   float64
	HeatIndexMax, WindChillMin float64
	HasHeatIndex, HasWindChill bool
}

// Add takes a sample of air at t °C and rh % with a wind of kmh km/h.
func (r *FeelRange) Add(t, rh, kmh float64) {
	f := Feels(t, rh, kmh)
	if r.N == 0 {
		r.Min, r.Max = math.Inf(1), math.Inf(-1)
	}
	r.N++
	r.Min, r.Max = min(r.Min, f.Apparent), max(r.Max, f.Apparent)
	if f.HasHeatIndex {
		if !r.HasHeatIndex || f.HeatIndex > r.HeatIndexMax {
			r.HeatIndexMax = f.HeatIndex
		}
		r.HasHeatIndex = true
	}
	if f.HasWindChill {
		if !r.HasWindChill || f.WindChill < r.WindChillMin {
			r.WindChillMin = f.WindChill
		}
		r.HasWindChill = true
	}
}
