package history

import (
	"math"
	"testing"

	"github.com/climated/climated/sensors"
)

// TestCatalogueStorage: every measurement of the catalogue is stored in its
// own resolution (a missing one used to be stored at thousandths, silently),
// and a value shown to its decimals comes back from storage unchanged.
func TestCatalogueStorage(t *testing.T) {
	for _, info := range sensors.Catalogue() {
		m := info.Name
		if info.Resolution <= 0 || scaleOf(m) != 1/info.Resolution {
			t.Errorf("%s: stored at scale %g, want 1/%g from the catalogue", m, scaleOf(m), info.Resolution)
			continue
		}
		step := math.Pow10(-info.Decimals)
		for _, v := range []float64{info.Min, info.Max, m.Round(info.Min+7*step, 0), m.Round(info.Max-3*step, 0)} {
			if got := m.Round(decode(m, float64(encode(m, v))), 0); got != v {
				t.Errorf("%s: %v stored comes back as %v", m, v, got)
			}
		}
	}
}
