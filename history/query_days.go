package history

import (
	"context"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// DayStep is the step an answer in local days (Query.Days) reports: one
// point per day of the hub's time zone, at the day's start (its local
// midnight), read from the daily summaries (Daily's days, kept or worked
// out) rather than bucketed from the hourly rollups. A day is 23 or 25
// hours long where the clocks change, which no fixed bucket follows.
const DayStep = 24 * time.Hour

// daysTier is the Tier of an answer in local days.
const daysTier = "daily summaries"

// rangeDays answers q (Query.Days) with the local days that overlap
// [q.From, q.To) of series id: the answer is from the first one's start
// to the last one's end, which its summary is over. starts are the days'
// starts (localDays).
func (s *Store) rangeDays(ctx context.Context, q Query, info sensors.Info, id int64, starts []time.Time) (*Series, error) {
	days, err := s.measurementDays(ctx, q.Zone, q.Measurement, starts)
	if err != nil {
		return nil, err
	}
	end := nextMidnight(starts[len(starts)-1], s.opts.Location).Unix()
	out := &Series{Zone: q.Zone, Measurement: q.Measurement, Unit: info.Unit, From: starts[0].Unix(), To: end,
		Step: formatStep(DayStep), StepSeconds: int64(DayStep / time.Second), Tier: daysTier,
		Columns: columns[info.Kind], Points: make([][]float64, 0, len(days))}
	var acc daysSummary
	for i, d := range days {
		st, ok := d.Measurements[string(q.Measurement)]
		if !ok {
			continue
		}
		out.Points = append(out.Points, dayPoint(starts[i], st, info.Kind))
		acc.add(st)
	}
	if acc.Count == 0 {
		return out, nil
	}
	sm := acc.summary(q.Measurement, info.Kind)
	if info.Kind == sensors.Direction {
		// The mean of the days' mean directions is not the mean of the
		// readings' unit vectors: that is read from the tiers, over the
		// whole days the count is of.
		if sm, err = s.meanDirection(ctx, tierSQLs[hourly].of(q.Measurement), id, out.From, end, q.Measurement, sm); err != nil {
			return nil, err
		}
	}
	out.Summary = &sm
	return out, nil
}

// localDays are the local midnights that start the days overlapping
// [from, to); the caller bounds their number (a query's MaxPoints).
func localDays(from, to time.Time, loc *time.Location) []time.Time {
	var starts []time.Time
	for d := climate.LocalMidnight(from, loc); d.Before(to); d = nextMidnight(d, loc) {
		starts = append(starts, d)
	}
	return starts
}

// measurementDays are measurement m of zone on the days that start at
// starts: the kept days as kept, the others summarised as Daily
// summarises them, for m alone.
func (s *Store) measurementDays(ctx context.Context, zone string, m sensors.Measurement, starts []time.Time) ([]Day, error) {
	days, live, err := s.keptOrLive(ctx, zone, starts)
	if err != nil || len(live) == 0 {
		return days, err
	}
	computed := make([]Day, len(live))
	for j := range live {
		computed[j] = days[live[j]]
	}
	if err := s.fillDays(ctx, zone, m, startsAt(starts, live), computed); err != nil {
		return nil, err
	}
	for j, i := range live {
		days[i] = computed[j]
	}
	return days, nil
}

// dayPoint is the point of the day starting at start whose summary is
// st, laid out as columns[kind] says.
func dayPoint(start time.Time, st Summary, kind sensors.Kind) []float64 {
	t := float64(start.Unix())
	switch kind {
	case sensors.Amount:
		var sum float64
		if st.Sum != nil {
			sum = *st.Sum
		}
		return []float64{t, sum}
	case sensors.Direction:
		return []float64{t, st.Mean}
	}
	return []float64{t, st.Mean, st.Min, st.Max}
}

// daysSummary adds days' summaries up into one over all of them.
type daysSummary struct {
	Summary
	total, sum float64 // the readings' total (from the days' means), an amount's sum
}

func (a *daysSummary) add(st Summary) {
	if a.Count == 0 || st.Min < a.Min {
		a.Min, a.MinTime = st.Min, st.MinTime
	}
	if a.Count == 0 || st.Max > a.Max {
		a.Max, a.MaxTime = st.Max, st.MaxTime
	}
	a.Count += st.Count
	a.total += st.Mean * float64(st.Count)
	if st.Sum != nil {
		a.sum += *st.Sum
	}
}

// summary is the days' Summary of m, a measurement of kind: its mean
// from the days' rounded means (off by less than their last decimal), a
// direction's left for the caller to read.
func (a *daysSummary) summary(m sensors.Measurement, kind sensors.Kind) Summary {
	st := a.Summary
	st.Mean = roundMore(m, a.total/float64(a.Count))
	if kind == sensors.Amount {
		sum := round(m, a.sum)
		st.Sum = &sum
	}
	return st
}
