package history

import (
	"fmt"
	"strconv"
	"time"

	"github.com/climated/climated/sensors"
)

// Retention defaults: raw readings for 30 days, 5-minute buckets for two
// years, hourly and daily buckets for ever.
const (
	DefaultRawRetention      = 30 * 24 * time.Hour
	DefaultRollupRetention   = 2 * 365 * 24 * time.Hour
	rawTier, fiveMin, hourly = 0, 1, 2
)

// tierSQL is how one tier is read: the table and the aggregate expressions
// over its rows, and what divides the raw integers back into units.
type tierSQL struct {
	name                        string
	table                       string
	width                       time.Duration // 0 for raw
	count, sum, mean, low, high string
	lowCol, highCol             string
	raw                         bool
}

var tierSQLs = [3]tierSQL{
	{"raw", rawView, 0, "count(*)", "sum(v)", "avg(v)", "min(v)", "max(v)", "v", "v", true},
	{"5-minute rollups", "rollup_5m", 5 * time.Minute, "sum(n)", "sum(total)", "sum(total) / sum(n)", "min(lo)", "max(hi)", "lo", "hi", false},
	{"hourly rollups", "rollup_1h", time.Hour, "sum(n)", "sum(total)", "sum(total) / sum(n)", "min(lo)", "max(hi)", "lo", "hi", false},
}

// dailyTier is the daily rollups, which no range query reads (a year is
// answered from the hourly tier): the records read a year's extremes
// from it in 365 rows.
var dailyTier = tierSQL{"daily rollups", "rollup_1d", 24 * time.Hour, "sum(n)", "sum(total)", "sum(total) / sum(n)", "min(lo)", "max(hi)", "lo", "hi", false}

// div is what turns a stored aggregate of m into units.
func (t tierSQL) div(m sensors.Measurement) float64 {
	if t.raw {
		return scaleOf(m)
	}
	return 1
}

// of is the tier as it is read for m: a rollup tier holds only the hours
// compaction has moved, so the readings still in recent (the last hour or
// two; after a backfill, until compaction has caught up) are read with it,
// each as a bucket of one. A direction's mean is that of its unit vectors
// (vectorMean), and stands for its low and high too: the extremes of
// angles say nothing.
func (t tierSQL) of(m sensors.Measurement) tierSQL {
	scale := strconv.FormatFloat(scaleOf(m), 'f', -1, 64)
	info, _ := sensors.Lookup(m)
	direction := info.Kind == sensors.Direction
	if t.raw {
		if direction {
			// Raw values are stored integers: the mean goes back to them.
			v := "radians(v / " + scale + ")"
			t.mean = vectorMean("sum(cos("+v+"))", "sum(sin("+v+"))") + " * " + scale
			t.low, t.high = t.mean, t.mean
		}
		return t
	}
	v := "CAST(v AS REAL) / " + scale
	t.table = fmt.Sprintf("(SELECT series, t, n, total, lo, hi, cs, sn FROM %s UNION ALL SELECT series, t, 1, %s, %[2]s, %[2]s, cos(radians(%[2]s)), sin(radians(%[2]s)) FROM recent)", t.table, v)
	if direction {
		t.mean = vectorMean("sum(cs)", "sum(sn)")
		t.low, t.high = t.mean, t.mean
	}
	return t
}

// vectorMean is the SQL of the mean direction, in degrees in [0, 360),
// of angles whose cosines add up to cs and sines to sn: the direction of
// the sum of their unit vectors, so 350° and 10° make 0°. Where the
// vectors cancel out it is 0.
func vectorMean(cs, sn string) string {
	return fmt.Sprintf("mod(degrees(atan2(%s, %s)) + 360, 360)", sn, cs)
}

// rowBudget bounds the rows one query reads from a tier, assuming the
// usual one reading a minute: beyond it, a coarser tier answers.
const rowBudget = 20_000

// pickTier chooses the finest tier that still holds data from `from` and
// answers in at most rowBudget rows. When its buckets are wider than step,
// the answer is coarser than asked and the second result says why.
func (s *Store) pickTier(m sensors.Measurement, from, to time.Time, step time.Duration) (tierSQL, string) {
	now := s.opts.Now()
	span := to.Sub(from)
	kept := [3]time.Time{now.Add(-s.opts.RawRetention), now.Add(-s.opts.RollupRetention), {}}
	why := ""
	for i, t := range tierSQLs {
		switch {
		case from.Before(kept[i]):
			why = fmt.Sprintf("%s are kept for %s", []string{"raw readings", "5-minute buckets"}[i], formatStep(now.Sub(kept[i])))
		case span/max(t.width, time.Minute) > rowBudget:
			if why == "" {
				why = "a range this long is read from " + tierSQLs[i+1].name
			}
		case t.width <= step:
			return t.of(m), ""
		default:
			if why == "" {
				why = fmt.Sprintf("the step is below the %s resolution of %s", formatStep(t.width), t.name)
			}
			return t.of(m), why
		}
	}
	return tierSQLs[hourly].of(m), why
}
