package sen5x

import "math"

// decode converts the eight words of read measured values (datasheet
// 6.1.5): PM1.0, PM2.5, PM4.0, PM10 as uint16 ×10, humidity int16 ×100,
// temperature int16 ×200, VOC and NOx indices int16 ×10. What product does
// not measure, a no-value word, and the particulate matter while warmUp
// are NaN.
func decode(w []uint16, product string, warmUp bool) Air {
	a := Air{
		PM1: pm(w[0]), PM25: pm(w[1]), PM4: pm(w[2]), PM10: pm(w[3]),
		Humidity:    scaled(w[4], 100),
		Temperature: scaled(w[5], 200),
		VOC:         scaled(w[6], 10),
		NOx:         scaled(w[7], 10),
	}
	if warmUp {
		a.PM1, a.PM25, a.PM4, a.PM10 = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	switch product {
	case "SEN50": // particulate matter only
		a.Humidity, a.Temperature, a.VOC, a.NOx = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	case "SEN54": // no NOx sensor
		a.NOx = math.NaN()
	}
	return a
}

// pm is a mass concentration: unsigned, tenths of µg/m³.
func pm(w uint16) float64 {
	if w == noUint {
		return math.NaN()
	}
	return float64(w) / 10
}

// scaled is a signed value divided by its scale factor.
func scaled(w uint16, scale float64) float64 {
	if w == noInt {
		return math.NaN()
	}
	return float64(int16(w)) / scale
}

// empty reports whether a has no value at all.
func (a *Air) empty() bool {
	for _, v := range []float64{a.PM1, a.PM25, a.PM4, a.PM10, a.Humidity, a.Temperature, a.VOC, a.NOx} {
		if !math.IsNaN(v) {
			return false
		}
	}
	return true
}
