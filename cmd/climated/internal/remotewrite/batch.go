package remotewrite

import (
	"maps"

	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/history"
)

// batch is one request's worth of readings, made into series, with what
// the cursor becomes once the store has taken them.
type batch struct {
	series  []series
	samples int
	last    history.Position
	totals  map[int64]int64 // the amounts' counters after the batch, for the series it changed
}

// makeBatch turns rs (in Position order) into series named as /metrics
// names them, each amount as its counter (totals, the counters up to
// the batch, is left unchanged). Readings of a measurement without a
// family are passed over.
func makeBatch(rs []history.Stored, totals map[int64]int64, extra []label) batch {
	b := batch{totals: map[int64]int64{}}
	at := map[int64]int{} // series id → index in b.series
	for _, r := range rs {
		b.last = r.Position
		f, ok := metrics.FamilyOf(r.Measurement)
		if !ok {
			continue
		}
		v := f.Gauge(r.Value)
		if f.Amount {
			n, seen := b.totals[r.Series]
			if !seen {
				n = totals[r.Series]
			}
			n += r.Steps
			b.totals[r.Series] = n
			v = f.Total(n)
		}
		i, ok := at[r.Series]
		if !ok {
			i = len(b.series)
			at[r.Series] = i
			b.series = append(b.series, series{labels: seriesLabels(f.Name, r, extra)})
		}
		b.series[i].samples = append(b.series[i].samples, sample{value: v, ms: r.T * 1000})
		b.samples++
	}
	return b
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
}

// changed is the set of series whose totals b changed.
func (b batch) changed() map[int64]bool {
	out := make(map[int64]bool, len(b.totals))
	for id := range b.totals {
		out[id] = true
	}
	return out
}
