package decode

import "github.com/climated/climated/sensors"

// Convert turns v, in unit, into the catalogue unit of m: the catalogue's
// own conversions (sensors.Measurement.Convert), which every decoder's
// value passes through.
func Convert(m sensors.Measurement, v float64, unit string) (float64, error) {
	return m.Convert(v, unit)
}
