package remotewrite

import (
	"maps"

	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// batch is one request's worth of readings, made into series, with what
// the cursor becomes once the store has taken them.
type batch struct {
	series  []series
	samples int
	last    history.Position
	totals  map[int64]int64 // the amounts' counters after the batch, for the series it changed
	sims    map[int64]bool  // whether each of those counters counts simulated readings
}

// makeBatch turns rs (in Position order) into series named as /metrics
// names them, each amount as its counter (totals, the counters up to
// the batch, and sims, whether each counted simulated readings, are left
// unchanged). Readings of a measurement without a family are passed over.
func makeBatch(rs []history.Stored, totals map[int64]int64, sims map[int64]bool, extra []label) batch {
	b := batch{totals: map[int64]int64{}, sims: map[int64]bool{}}
	at := map[int64]int{} // series id → index in b.series
	for _, r := range rs {
		b.last = r.Position
		f, ok := metrics.FamilyOf(r.Measurement)
		if !ok {
			continue
		}
		v := f.Gauge(r.Value)
		if f.Amount {
			n := b.counter(r, totals, sims) + r.Steps
			b.totals[r.Series], b.sims[r.Series] = n, sensors.Simulated(r.Source)
			v = f.Total(n)
		}
		i, ok := at[r.Series]
		if !ok {
			i = len(b.series)
			at[r.Series] = i
			b.series = append(b.series, series{labels: seriesLabels(f.Name, r, extra), counter: f.Amount})
		}
		b.series[i].samples = append(b.series[i].samples, sample{value: v, ms: r.T * 1000})
		b.samples++
	}
	return b
}

// counter is r's series' counter before r: what the batch or, before it,
// totals made it; 0 when the counter counted readings of the other kind
// (simulated or measured) than r's, a series a measured source took from
// the demo (sensors.Claim) or the demo took again once forgotten: the
// counter of a source starts from its own first amount.
func (b batch) counter(r history.Stored, totals map[int64]int64, sims map[int64]bool) int64 {
	n, seen := b.totals[r.Series]
	sim, known := b.sims[r.Series]
	if !seen {
		n = totals[r.Series]
		sim, known = sims[r.Series]
	}
	if known && sim != sensors.Simulated(r.Source) {
		return 0
	}
	return n
}

// seriesLabels are a series' labels as /metrics gives them (zone, source,
// simulated) and the configured ones, sorted.
func seriesLabels(name string, r history.Stored, extra []label) []label {
	ls := make([]label, 0, 4+len(extra))
	ls = append(ls, label{"__name__", name}, label{"zone", r.Zone}, label{"source", r.Source}, label{"simulated", metrics.Simulated(r.Source)})
	ls = append(ls, extra...)
	sortLabels(ls)
	return ls
}

// apply moves cur past b.
func (b batch) apply(cur *cursor) {
	cur.pos = b.last
	maps.Copy(cur.totals, b.totals)
	maps.Copy(cur.sims, b.sims)
}

// changed is the set of series whose totals b changed.
func (b batch) changed() map[int64]bool {
	out := make(map[int64]bool, len(b.totals))
	for id := range b.totals {
		out[id] = true
	}
	return out
}
