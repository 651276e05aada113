package weather

import "testing"

// TestUVCategory: the WHO's bands at their edges, a reading rounded to
// the published whole index first.
func TestUVCategory(t *testing.T) {
	for uv, want := range map[float64]string{
		0: "low", 2: "low", 2.4: "low", 2.6: "moderate", 3: "moderate", 5: "moderate", 6: "high", 7: "high",
		7.5: "very high", 8: "very high", 10: "very high", 10.6: "extreme", 11: "extreme", 14: "extreme",
	} {
		if got := UVCategory(uv); got != want {
			t.Errorf("UV %g: %s, want %s", uv, got, want)
		}
	}
}

// TestCompass: the nearest of the 16 points.
func TestCompass(t *testing.T) {
	for deg, want := range map[float64]string{
		0: "N", 359: "N", 11.2: "N", 11.3: "NNE", 45: "NE", 100: "E", 180: "S", 202.5: "SSW", 270: "W", 337.5: "NNW", 360: "N", -10: "N",
	} {
		if got := Compass(deg); got != want {
			t.Errorf("%g°: %s, want %s", deg, got, want)
		}
	}
}
