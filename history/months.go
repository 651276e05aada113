package history

import (
	"context"
	"math"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// Span is a month's or a year's climate in a zone, made of its daily
// summaries as weewx's NOAA reports make theirs: each measurement's mean
// of the days' means, its extremes with their times, the sum of an amount
// with its largest day (the wettest), a direction's prevailing one (the
// days' means as vectors, weighted by their readings), and an outdoor
// zone's degree days summed.
type Span struct {
	Period       string                 `json:"period"` // 2026-03, or 2026
	Days         int                    `json:"days"`   // days with readings
	Measurements map[string]SpanSummary `json:"measurements"`
	HDD          *float64               `json:"hdd,omitempty"`
	CDD          *float64               `json:"cdd,omitempty"`
}

// SpanSummary is one measurement over a Span.
type SpanSummary struct {
	Mean    float64  `json:"mean"`
	Min     *float64 `json:"min,omitempty"`
	MinTime int64    `json:"min_time,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	MaxTime int64    `json:"max_time,omitempty"`
	Sum     *float64 `json:"sum,omitempty"`
	// MaxDay is an amount's largest day (the wettest), and MaxDaySum its
	// sum.
	MaxDay    string   `json:"max_day,omitempty"`
	MaxDaySum *float64 `json:"max_day_sum,omitempty"`
}

// Year is a zone's year: its months that have readings, and the year.
type Year struct {
	Zone   string `json:"zone"`
	Months []Span `json:"months"`
	Year   Span   `json:"year"`
}

// YearOf summarises zone's year (in the hub's time zone) per month and as
// a whole, from its daily summaries: a year reads its 365 kept days.
func (s *Store) YearOf(ctx context.Context, zone string, year int) (Year, error) {
	loc := s.opts.Location
	from := climate.DayStart(year, time.January, 1, loc)
	days, err := s.Daily(ctx, zone, from, climate.DayStart(year+1, time.January, 1, loc))
	if err != nil {
		return Year{}, err
	}
	out := Year{Zone: zone, Months: []Span{}}
	all := newSpanner(from.Format("2006"))
	var month *spanner
	for _, d := range days {
		if month == nil || month.period != d.Date[:7] {
			if month != nil {
				out.Months = append(out.Months, month.span())
			}
			month = newSpanner(d.Date[:7])
		}
		month.add(d)
		all.add(d)
	}
	if month != nil {
		out.Months = append(out.Months, month.span())
	}
	out.Year = all.span()
	return out, nil
}

// SpanOf is days (of one zone, in order) as one Span called period.
func SpanOf(period string, days []Day) Span {
	sp := newSpanner(period)
	for _, d := range days {
		sp.add(d)
	}
	return sp.span()
}

// Summary is s as the Summary of its span: its mean, extremes and sum.
func (s SpanSummary) Summary() Summary {
	st := Summary{Count: 1, Mean: s.Mean, MinTime: s.MinTime, MaxTime: s.MaxTime, Sum: s.Sum}
	if s.Min != nil {
		st.Min, st.Max = *s.Min, *s.Max
	}
	return st
}

// spanner gathers days into a Span.
type spanner struct {
	period   string
	days     int
	hdd, cdd *float64
	ms       map[string]*spanAcc
}

// spanAcc is one measurement's days so far.
type spanAcc struct {
	m           sensors.Measurement
	means, days float64 // the sum of the days' means, and the days
	x, y, n     float64 // a direction's days as vectors, by readings
	direction   bool
	out         SpanSummary
	sum         *float64
}

func newSpanner(period string) *spanner {
	return &spanner{period: period, ms: map[string]*spanAcc{}}
}

func (sp *spanner) add(d Day) {
	sp.days++
	sp.hdd, sp.cdd = addPtr(sp.hdd, d.HDD), addPtr(sp.cdd, d.CDD)
	for name, st := range d.Measurements {
		a := sp.ms[name]
		if a == nil {
			a = &spanAcc{m: sensors.Measurement(name), direction: st.direction}
			sp.ms[name] = a
		}
		a.add(d.Date, st)
	}
}

func (a *spanAcc) add(date string, st Summary) {
	a.means += st.Mean
	a.days++
	if a.direction {
		r := st.Mean * math.Pi / 180
		a.x, a.y, a.n = a.x+float64(st.Count)*math.Cos(r), a.y+float64(st.Count)*math.Sin(r), a.n+float64(st.Count)
		return
	}
	if a.out.Min == nil || st.Min < *a.out.Min {
		a.out.Min, a.out.MinTime = new(st.Min), st.MinTime
	}
	if a.out.Max == nil || st.Max > *a.out.Max {
		a.out.Max, a.out.MaxTime = new(st.Max), st.MaxTime
	}
	if st.Sum != nil {
		a.sum = addPtr(a.sum, st.Sum)
		if a.out.MaxDaySum == nil || *st.Sum > *a.out.MaxDaySum {
			a.out.MaxDay, a.out.MaxDaySum = date, new(*st.Sum)
		}
	}
}

func (sp *spanner) span() Span {
	out := Span{Period: sp.period, Days: sp.days, Measurements: make(map[string]SpanSummary, len(sp.ms)), HDD: roundPtr(sp.hdd), CDD: roundPtr(sp.cdd)}
	for name, a := range sp.ms {
		st := a.out
		st.Mean = roundMore(a.m, a.means/a.days)
		if a.direction {
			st.Mean = bearing(roundMore(a.m, math.Mod(math.Atan2(a.y, a.x)*180/math.Pi+360, 360)))
		}
		if a.sum != nil {
			st.Sum = new(round(a.m, *a.sum))
		}
		out.Measurements[name] = st
	}
	return out
}

// addPtr is a+b where either may be absent.
func addPtr(a, b *float64) *float64 {
	switch {
	case b == nil:
		return a
	case a == nil:
		return new(*b)
	}
	return new(*a + *b)
}

func roundPtr(v *float64) *float64 {
	if v == nil {
		return nil
	}
	return new(math.Round(*v*10) / 10)
}
