package history

import (
	"math"

	"github.com/climated/climated/sensors"
)

// Raw values are stored as integers in a fixed resolution per measurement,
// far finer than any sensor: SQLite then keeps most of them in 2 or 3 bytes
// instead of the 8 of a REAL, which is most of a raw row.
var resolution = map[sensors.Measurement]float64{
	sensors.Temperature:      0.001,  // °C
	sensors.Humidity:         0.01,   // %
	sensors.CO2:              0.1,    // ppm
	sensors.Noise:            0.01,   // dB
	sensors.Pressure:         0.001,  // hPa
	sensors.AbsolutePressure: 0.001,  // hPa
	sensors.Rain:             0.0001, // mm: a 0.2794 mm bucket tip is exact
	sensors.BatteryVoltage:   1,      // mV
	sensors.BatteryPercent:   0.01,   // %
	sensors.RFStatus:         0.01,
	sensors.WiFiStatus:       0.01,
	sensors.PM1:              0.01, // µg/m³
	sensors.PM25:             0.01,
	sensors.PM4:              0.01,
	sensors.PM10:             0.01,
	sensors.VOCIndex:         0.1, // Sensirion's indices come in tenths
	sensors.NOxIndex:         0.1,
}

// scaleOf is how many stored units make one unit of m.
func scaleOf(m sensors.Measurement) float64 {
	if r, ok := resolution[m]; ok {
		return 1 / r
	}
	return 1000
}

func encode(m sensors.Measurement, v float64) int64 { return int64(math.Round(v * scaleOf(m))) }

func decode(m sensors.Measurement, stored float64) float64 { return stored / scaleOf(m) }
