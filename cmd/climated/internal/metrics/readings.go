package metrics

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// Readings is what the readings' families read of the hub: its zones as
// they stand, its sources' statuses, the totals of amounts in its history,
// and every batch of readings it records.
type Readings interface {
	Describe() []climate.ZoneInfo
	Statuses() []sensors.Status
	Flush(ctx context.Context) error
	Totals(ctx context.Context, m sensors.Measurement) (map[string]int64, error)
	OnRecord(f func(ctx context.Context, rs []sensors.Reading))
	OnSeriesReset(f func(ctx context.Context, zone string, m sensors.Measurement))
}

// WatchReadings adds the current readings, one family per measurement of
// the catalogue (readingsCollector), with the totals of amounts starting
// from what the history holds. Call it before the sources run, so that
// every reading is either in the history's totals or added once as it is
// recorded. A flush that fails (a full disk) is logged: what it kept back
// is counted from the next start. staleAfter 0 is climate.DefaultStaleAfter.
func (m *Metrics) WatchReadings(ctx context.Context, h Readings, staleAfter time.Duration, log *slog.Logger) error {
	if err := h.Flush(ctx); err != nil {
		log.Warn("metrics: the amounts' totals start from what is committed; the rest counts from the next start", "err", err)
	}
	c := newReadingsCollector(h, staleAfter, time.Now)
	for _, info := range sensors.Catalogue() {
		if info.Kind != sensors.Amount {
			continue
		}
		totals, err := h.Totals(ctx, info.Name)
		if err != nil {
			return fmt.Errorf("metrics: %w", err)
		}
		for zone, n := range totals {
			c.totals[seriesKey{zone, info.Name}] = n
		}
	}
	h.OnRecord(c.recorded)
	h.OnSeriesReset(c.reset)
	return m.reg.Register(c)
}

// seriesKey names one zone's measurement.
type seriesKey struct {
	zone string
	m    sensors.Measurement
}

// family is one measurement's family, made from its catalogue entry.
type family struct {
	info sensors.Info
	unit unit
	desc *prometheus.Desc
}

var readingAge = prometheus.NewDesc("climated_reading_age_seconds",
	"Seconds since the latest reading of each zone's measurement, its value's age (also for a value left out as stale).",
	[]string{"zone", "measurement", "source", "simulated"}, nil)

// readingsCollector serves the readings: the latest value of every
// gauge (Gauge and Health) while it is current, the total of every
// amount (a counter), and the age of each.
type readingsCollector struct {
	hub        Readings
	staleAfter time.Duration
	now        func() time.Time
	families   map[sensors.Measurement]family

	mu     sync.Mutex
	totals map[seriesKey]int64 // integers of the measurement's resolution, as the history keeps them
}

func newReadingsCollector(h Readings, staleAfter time.Duration, now func() time.Time) *readingsCollector {
	if staleAfter <= 0 {
		staleAfter = climate.DefaultStaleAfter
	}
	return &readingsCollector{hub: h, staleAfter: staleAfter, now: now, families: families(), totals: map[seriesKey]int64{}}
}

// families makes a family for every measurement of the catalogue whose
// unit has a place in units.
func families() map[sensors.Measurement]family {
	out := map[sensors.Measurement]family{}
	for _, info := range sensors.Catalogue() {
		u, ok := units[info.Unit]
		if !ok {
			continue
		}
		out[info.Name] = family{info: info, unit: u, desc: prometheus.NewDesc(familyName(info, u), help(info, u),
			[]string{"zone", "source", "simulated"}, nil)}
	}
	return out
}

// help is a family's HELP: what it measures, in which unit, from which
// unit of the catalogue.
func help(info sensors.Info, u unit) string {
	what := strings.ToUpper(info.Description[:1]) + info.Description[1:]
	if info.Kind == sensors.Amount {
		what = fmt.Sprintf("%s: every amount recorded in the zone added up (increase() gives the amount of any window)", info.Name)
	}
	in := "in " + strings.ReplaceAll(u.suffix, "_", " ")
	if u.suffix == "ratio" {
		in = "as a ratio, 0…1"
	}
	switch {
	case u.suffix == "":
		return what + "."
	case u.factor == 1:
		return fmt.Sprintf("%s, %s.", what, in)
	}
	if u.factor < 1 {
		return fmt.Sprintf("%s, %s (%s ÷ %.6g).", what, in, info.Unit, 1/u.factor)
	}
	return fmt.Sprintf("%s, %s (%s × %g).", what, in, info.Unit, u.factor)
}

// recorded adds the amounts among rs to the totals (the hub's OnRecord).
func (c *readingsCollector) recorded(_ context.Context, rs []sensors.Reading) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range rs {
		if f, ok := c.families[r.Measurement]; ok && f.info.Kind == sensors.Amount {
			c.totals[seriesKey{r.Zone, r.Measurement}] += steps(r.Value, f.info.Resolution)
		}
	}
}

// reset drops the total of a series whose past readings are gone (the
// hub's OnSeriesReset): a station that takes a zone the demo filled
// counts from its own first amount, as the history's totals do.
func (c *readingsCollector) reset(_ context.Context, zone string, m sensors.Measurement) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.totals, seriesKey{zone, m})
}

// steps is v in integers of res, as the history stores it.
func steps(v, res float64) int64 { return int64(math.Round(v * (1 / res))) }

func (c *readingsCollector) total(k seriesKey) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.totals[k]
	return n, ok
}

func (c *readingsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- readingAge
	for _, f := range c.families {
		ch <- f.desc
	}
}

func (c *readingsCollector) Collect(ch chan<- prometheus.Metric) {
	now := c.now()
	health := sensors.HealthByZone(c.hub.Statuses())
	for _, z := range c.hub.Describe() {
		offline := health[z.Name].Offline
		for _, m := range z.Measurements {
			f, ok := c.families[m.Name]
			if !ok || !utf8.ValidString(z.Name) || !utf8.ValidString(m.Source) {
				// A label must be UTF-8, or the whole scrape fails; the
				// hub records no other since it checks zones and
				// sources, but a history written before may hold one.
				continue
			}
			sim := simulated(m.Source)
			ch <- prometheus.MustNewConstMetric(readingAge, prometheus.GaugeValue, now.Sub(time.Unix(m.When, 0)).Seconds(), z.Name, string(m.Name), m.Source, sim)
			if metric := c.value(f, z.Name, m, offline, now); metric != nil {
				ch <- metric
			}
		}
	}
}

// value is m's sample: an amount's total, whether or not the zone is
// stale (a total never looks current: it is what was recorded, and a
// counter that vanished would lose the amount that brings it back from
// increase()); a gauge's value only while it is current, by the hub's
// rule for a stale zone (climate.Stale) applied to the value itself.
func (c *readingsCollector) value(f family, zone string, m climate.MeasurementInfo, offline bool, now time.Time) prometheus.Metric {
	labels := []string{zone, m.Source, simulated(m.Source)}
	if f.info.Kind == sensors.Amount {
		n, ok := c.total(seriesKey{zone, m.Name})
		if !ok {
			return nil
		}
		v := f.unit.scale(float64(n)*f.info.Resolution, decimalsOf(f.info.Resolution))
		return prometheus.MustNewConstMetric(f.desc, prometheus.CounterValue, v, labels...)
	}
	if climate.Stale(m.When, offline, now, c.staleAfter) {
		return nil
	}
	return prometheus.MustNewConstMetric(f.desc, prometheus.GaugeValue, f.unit.scale(m.Value, f.info.Decimals), labels...)
}

// simulated is the label that tells the demo house's values from
// measured ones: "true" for a value of a demo source.
func simulated(source string) string {
	if sensors.Simulated(source) {
		return "true"
	}
	return "false"
}
