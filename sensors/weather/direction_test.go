package weather

import (
	"math"
	"testing"
)

// TestMeanDirection: directions average as vectors.
func TestMeanDirection(t *testing.T) {
	for _, c := range []struct {
		name  string
		dirs  []float64
		w     []float64
		want  float64
		valid bool
	}{
		{"across north", []float64{350, 10}, nil, 0, true},
		{"east and south", []float64{90, 180}, nil, 135, true},
		{"across north, weighted", []float64{350, 20}, []float64{2, 1}, 359.896, true}, // atan2(2·sin350+sin20, 2·cos350+cos20)
		{"opposite", []float64{90, 270}, nil, 0, false},
		{"calm (no weight)", []float64{45}, []float64{0}, 0, false},
		{"none", nil, nil, 0, false},
	} {
		got, ok := MeanDirection(c.dirs, c.w)
		d := math.Abs(math.Mod(got-c.want+540, 360) - 180)
		if ok != c.valid || ok && d > 0.01 {
			t.Errorf("%s: %.2f %v, want %.2f %v", c.name, got, ok, c.want, c.valid)
		}
	}
}

// TestDegreeDays: below the base, heating; above, cooling; never both.
func TestDegreeDays(t *testing.T) {
	for _, c := range []struct{ mean, base, heat, cool float64 }{
		{10, 18, 8, 0}, {25.5, 18, 0, 7.5}, {18, 18, 0, 0}, {-3, 15.5, 18.5, 0},
	} {
		if h, k := DegreeDays(c.mean, c.base); h != c.heat || k != c.cool {
			t.Errorf("mean %v against %v: heating %v cooling %v, want %v %v", c.mean, c.base, h, k, c.heat, c.cool)
		}
	}
}
