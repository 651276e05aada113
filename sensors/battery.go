package sensors

import "sort"

// The battery keys follow one model per kind of source, never two rules
// that contradict each other:
//
//   - battery_vp is a measured voltage, in mV. It is never derived from a
//     percentage.
//   - battery_percent is the level the device itself reports (a Shelly, a
//     zigbee sensor, rtl_433's battery_ok). A source that measures only a
//     voltage derives the level from it with the discharge curve of its
//     cells' chemistry, Discharge.Percent, when it knows the chemistry,
//     and leaves the key out when it does not: MQTT devices report no
//     chemistry, so climated never derives their level (mqtt/decode).
//   - The demo house simulates battery modules on four alkaline cells: it
//     simulates the charge used, hence the pack's voltage (Alkaline), and
//     reports the level as a device would, Alkaline.Percent of that
//     voltage (sensors/demo).

// Discharge is the discharge curve of one battery chemistry: the voltage
// of one cell at levels of charge, under the light load of a sensor.
type Discharge struct {
	Chemistry string
	// Curve is cell voltage (mV) by level (%), highest voltage first.
	Curve []CellPoint
}

// CellPoint is one point of a discharge curve.
type CellPoint struct {
	MV      float64 // one cell's voltage
	Percent float64 // the charge left, 0…100
}

// Alkaline is the curve of an alkaline cell (AA or AAA) under a sensor's
// light load, a few mA: about 1.55 V fresh, a long plateau through
// 1.35…1.25 V, and a fall below 1.1 V when it is spent. Approximate, as any
// such curve is: it depends on load and temperature.
var Alkaline = Discharge{Chemistry: "alkaline", Curve: []CellPoint{
	{1550, 100}, {1450, 85}, {1350, 65}, {1250, 40}, {1150, 20}, {1050, 5}, {1000, 0},
}}

// Percent is the level of a pack of cells in series at mV, interpolated
// on the curve and kept within 0…100 %.
func (d Discharge) Percent(mV float64, cells int) float64 {
	v := mV / float64(cells)
	c := d.Curve
	switch {
	case v >= c[0].MV:
		return c[0].Percent
	case v <= c[len(c)-1].MV:
		return c[len(c)-1].Percent
	}
	i := sort.Search(len(c), func(i int) bool { return c[i].MV <= v }) // c[i-1].MV > v >= c[i].MV
	hi, lo := c[i-1], c[i]
	return lo.Percent + (hi.Percent-lo.Percent)*(v-lo.MV)/(hi.MV-lo.MV)
}

// Voltage is the voltage of a pack of cells in series with pc % of its
// charge left: the inverse of Percent, for a simulation whose state is the
// charge used.
func (d Discharge) Voltage(pc float64, cells int) float64 {
	c := d.Curve
	switch {
	case pc >= c[0].Percent:
		return c[0].MV * float64(cells)
	case pc <= c[len(c)-1].Percent:
		return c[len(c)-1].MV * float64(cells)
	}
	i := sort.Search(len(c), func(i int) bool { return c[i].Percent <= pc })
	hi, lo := c[i-1], c[i]
	return (lo.MV + (hi.MV-lo.MV)*(pc-lo.Percent)/(hi.Percent-lo.Percent)) * float64(cells)
}
