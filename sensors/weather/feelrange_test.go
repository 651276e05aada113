package weather

import (
	"math"
	"testing"
)

// TestFeelRange: the range of a day's samples is the extremes of what each
// sample felt like (Feels), the heat index and the wind chill only from
// the samples where they apply.
func TestFeelRange(t *testing.T) {
	samples := [][3]float64{{-5, 60, 25}, {12, 70, 10}, {31, 65, 5}, {29, 40, 3}}
	var r FeelRange
	lo, hi, heat, chill := math.Inf(1), math.Inf(-1), math.Inf(-1), math.Inf(1)
	for _, s := range samples {
		r.Add(s[0], s[1], s[2])
		f := Feels(s[0], s[1], s[2])
		lo, hi = min(lo, f.Apparent), max(hi, f.Apparent)
		if f.HasHeatIndex {
			heat = max(heat, f.HeatIndex)
		}
		if f.HasWindChill {
			chill = min(chill, f.WindChill)
		}
	}
	if r.N != 4 || r.Min != lo || r.Max != hi {
		t.Errorf("range %+v, want 4 samples from %g to %g", r, lo, hi)
	}
	if !r.HasHeatIndex || r.HeatIndexMax != heat || !r.HasWindChill || r.WindChillMin != chill {
		t.Errorf("range %+v, want heat index %g and wind chill %g", r, heat, chill)
	}
	var mild FeelRange
	mild.Add(15, 50, 2)
	if mild.HasHeatIndex || mild.HasWindChill {
		t.Errorf("a mild sample: %+v, want neither heat index nor wind chill", mild)
	}
	if (FeelRange{}).N != 0 {
		t.Error("the zero range has samples")
	}
}
