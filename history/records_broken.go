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
// whole local days, so its records count from since's midnight.
func (s *Store) broken(ctx context.Context, rs recordSeries, span recordSpan, since time.Time) ([]Broken, error) {
	cut := since.Unix()
	if rs.kind == sensors.Amount {
		cut = climate.LocalMidnight(since, s.opts.Location).Unix()
	}
	var out []Broken
	done := map[string]bool{}
	for _, sp := range []struct {
		name string
		from int64
	}{{"ever", 0}, {"year", span.year}} {
		now, ok, err := s.record(ctx, rs, sp.from, span.to)
		if err != nil || !ok {
			return out, err
		}
		before, ok, err := s.record(ctx, rs, sp.from, cut)
		if err != nil {
			return out, err
		}
		if !ok {
			continue // nothing stood before: the first readings beat nothing
		}
		for _, b := range beaten(rs, now, before, cut, s.opts.Location) {
			if !done[b.Record] {
				done[b.Record] = true
				b.Record = sp.name + " " + b.Record
				out = append(out, b)
			}
		}
	}
	return out, nil
}

// beaten are the extremes of now, set at or after cut, that beat those
// of before: "min" and "max" for a gauge, "wettest day" for an amount.
func beaten(rs recordSeries, now, before Record, cut int64, loc *time.Location) []Broken {
	m := string(rs.m)
	if rs.kind == sensors.Amount {
		cutDay := time.Unix(cut, 0).In(loc).Format(time.DateOnly)
		if now.Day >= cutDay && now.Max > before.Max {
			return []Broken{{Measurement: m, Record: "wettest day", Value: now.Max, Day: now.Day, Was: before.Max, WasDay: before.Day}}
		}
		return nil
	}
	var out []Broken
	if now.MinTime >= cut && *now.Min < *before.Min {
		out = append(out, Broken{Measurement: m, Record: "min", Value: *now.Min, Time: now.MinTime, Was: *before.Min, WasTime: before.MinTime})
	}
	if now.MaxTime >= cut && now.Max > before.Max {
		out = append(out, Broken{Measurement: m, Record: "max", Value: now.Max, Time: now.MaxTime, Was: before.Max, WasTime: before.MaxTime})
	}
	return out
}
