package history

import (
	"math"

	"github.com/climated/climated/sensors"
)

// Raw values are stored as integers in the catalogue's resolution of their
// measurement (sensors.Info.Resolution), far finer than any sensor: SQLite
// then keeps most of them in 2 or 3 bytes instead of the 8 of a REAL, which
// is most of a raw row.

// scaleOf is how many stored units make one unit of m. Every measurement
// of the catalogue has a resolution (TestCatalogue); a name outside it,
// which no reading can carry, keeps the thousandths.
func scaleOf(m sensors.Measurement) float64 {
	if info, ok := sensors.Lookup(m); ok && info.Resolution > 0 {
		return 1 / info.Resolution
	}
	return 1000
}

func encode(m sensors.Measurement, v float64) int64 { return int64(math.Round(v * scaleOf(m))) }

func decode(m sensors.Measurement, stored float64) float64 { return stored / scaleOf(m) }
