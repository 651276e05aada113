package history

import (
	"context"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// broken lists the records of rs set since `since` that beat the one
// standing before it: each extreme once, as an ever record when it is
// one (it is the year's too), else as the year's. An amount's days are
// whole local days, so its records count from since's midnight. The
// history is read once: before the year, the year before since, and the
// period, whose extremes are merged.
func (s *Store) broken(ctx context.Context, rs recordSeries, span recordSpan, since time.Time) ([]Broken, error) {
	cut := since.Unix()
	if rs.kind == sensors.Amount {
		cut = climate.LocalMidnight(since, s.opts.Location).Unix()
	}
	period, ok, err := s.record(ctx, rs, cut, span.to)
	if err != nil || !ok {
		return nil, err
	}
	older, okOlder, err := s.record(ctx, rs, 0, min(span.year, cut))
	if err != nil {
		return nil, err
	}
	year, okYear, err := s.record(ctx, rs, span.year, cut)
	if err != nil {
		return nil, err
	}
	ever, okEver := merge(older, okOlder, year, okYear)
	var out []Broken
	done := map[string]bool{}
	for _, sp := range []struct {
		name   string
		before Record
		ok     bool
	}{{"ever", ever, okEver}, {"year", year, okYear}} {
		if !sp.ok {
			continue // nothing stood before: the first readings beat nothing
		}
		for _, b := range beaten(rs, period, sp.before) {
			if !done[b.Record] {
				done[b.Record] = true
				b.Record = sp.name + " " + b.Record
				out = append(out, b)
			}
		}
	}
	return out, nil
}

// merge is the record of two spans, a before b: the lower low, the
// higher high, the earlier of equals.
func merge(a Record, okA bool, b Record, okB bool) (Record, bool) {
	if !okA || !okB {
		return map[bool]Record{true: a, false: b}[okA], okA || okB
	}
	if b.Min != nil && *b.Min < *a.Min {
		a.Min, a.MinTime = b.Min, b.MinTime
	}
	if b.Max > a.Max {
		a.Max, a.MaxTime, a.Day = b.Max, b.MaxTime, b.Day
	}
	return a, true
}

// beaten are the extremes of the period that beat those that stood
// before it: "min" and "max" for a gauge, "wettest day" for an amount.
func beaten(rs recordSeries, period, before Record) []Broken {
	m := string(rs.m)
	if rs.kind == sensors.Amount {
		if period.Max > before.Max {
			return []Broken{{Measurement: m, Record: "wettest day", Value: period.Max, Day: period.Day, Was: before.Max, WasDay: before.Day}}
		}
		return nil
	}
	var out []Broken
	if *period.Min < *before.Min {
		out = append(out, Broken{Measurement: m, Record: "min", Value: *period.Min, Time: period.MinTime, Was: *before.Min, WasTime: before.MinTime})
	}
	if period.Max > before.Max {
		out = append(out, Broken{Measurement: m, Record: "max", Value: period.Max, Time: period.MaxTime, Was: before.Max, WasTime: before.MaxTime})
	}
	return out
}
