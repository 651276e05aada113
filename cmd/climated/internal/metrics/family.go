package metrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/climated/climated/sensors"
)

// Family is how the readings of one measurement appear on /metrics: the
// family's name and its unit. Whoever sends the readings elsewhere (remote
// write) names them by it, so that a pushed series is the scraped one.
type Family struct {
	Name   string
	Amount bool // a counter of every amount recorded (rain), not a gauge
	f      family
}

var allFamilies = sync.OnceValue(families)

// FamilyOf is m's family; false for a measurement without one.
func FamilyOf(m sensors.Measurement) (Family, bool) {
	f, ok := allFamilies()[m]
	if !ok {
		return Family{}, false
	}
	return Family{Name: familyName(f.info, f.unit), Amount: f.info.Kind == sensors.Amount, f: f}, true
}

// Gauge is a gauge's value v, in the catalogue's unit, as /metrics gives
// it.
func (f Family) Gauge(v float64) float64 { return f.f.unit.scale(v, f.f.info.Decimals) }

// Total is an amount's total, steps integers of its resolution (as the
// history keeps it), as /metrics gives it.
func (f Family) Total(steps int64) float64 {
	res := f.f.info.Resolution
	return f.f.unit.scale(float64(steps)*res, decimalsOf(res))
}

// Simulated is the simulated label of a reading of source: "true" for
// the demo house's.
func Simulated(source string) string { return simulated(source) }

// Register adds a collector of another part of the hub to /metrics.
func (m *Metrics) Register(c prometheus.Collector) error { return m.reg.Register(c) }
