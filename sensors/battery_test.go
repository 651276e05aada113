package sensors

import (
	"math"
	"testing"
)

func TestAlkaline(t *testing.T) {
	for _, tt := range []struct{ mV, pc float64 }{
		{6400, 100}, {6200, 100}, {5800, 85}, {5600, 75}, {5400, 65}, {5000, 40}, {4600, 20}, {4000, 0}, {3000, 0},
	} {
		if got := Alkaline.Percent(tt.mV, 4); math.Abs(got-tt.pc) > 1e-9 {
			t.Errorf("Percent(%g mV, 4 cells) = %g, want %g", tt.mV, got, tt.pc)
		}
	}
	// Voltage is Percent's inverse over the whole curve.
	for pc := 0.0; pc <= 100; pc += 0.5 {
		if got := Alkaline.Percent(Alkaline.Voltage(pc, 4), 4); math.Abs(got-pc) > 1e-9 {
			t.Errorf("Percent(Voltage(%g)) = %g", pc, got)
		}
	}
}
