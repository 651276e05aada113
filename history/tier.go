package history

import (
	"fmt"
	"strconv"
	"strings"
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

// rollupTier is one rollup tier: its table, the width of its buckets,
// whether range queries read it, and how long its buckets are kept. This
// list is the one every part of the history ranges over: the writer's
// upserts, the queries, retention, forget and its split buckets.
type rollupTier struct {
	table  string
	width  time.Duration
	name   string // as a message names it: "5-minute rollups"
	ranged bool   // range queries read it (a year is read from the hourly tier)
	// retention is how long the tier's buckets are kept (nil: for ever),
	// and pruneChunk the seconds one pruning step deletes.
	retention  func(*Options) time.Duration
	pruneChunk int64
}

var rollupTiers = []rollupTier{
	{table: "rollup_5m", width: 5 * time.Minute, name: "5-minute rollups", ranged: true,
		retention: func(o *Options) time.Duration { return o.RollupRetention }, pruneChunk: 7 * 86400},
	{table: "rollup_1h", width: time.Hour, name: "hourly rollups", ranged: true},
	// The daily buckets: the records read a year's extremes from them in
	// 365 rows.
	{table: "rollup_1d", width: 24 * time.Hour, name: "daily rollups"},
}

// tierSQL is how one tier is read: the table and the aggregate expressions
// over its rows, and what divides the raw integers back into units.
type tierSQL struct {
	name                        string
	table                       string
	width                       time.Duration // 0 for raw
	count, sum, mean, low, high string
	lowCol, highCol             string
	raw                         bool
	kept                        string                       // what a message calls its rows: "raw readings"
	retention                   func(*Options) time.Duration // nil: kept for ever
}

// rawSQL is the raw tier (raw readings and recent ones) as it is read.
var rawSQL = tierSQL{name: "raw", table: rawView, count: "count(*)", sum: "sum(v)", mean: "avg(v)", low: "min(v)", high: "max(v)", lowCol: "v", highCol: "v", raw: true,
	kept: "raw readings", retention: func(o *Options) time.Duration { return o.RawRetention }}

// rollupSQL is how a rollup tier is read.
func rollupSQL(r rollupTier) tierSQL {
	return tierSQL{name: r.name, table: r.table, width: r.width, count: "sum(n)", sum: "sum(total)", mean: "sum(total) / sum(n)", low: "min(lo)", high: "max(hi)",
		lowCol: "lo", highCol: "hi", kept: strings.TrimSuffix(r.name, " rollups") + " buckets", retention: r.retention}
}

// tierSQLs are the tiers range queries read, finest first: raw, then the
// ranged rollups (indexed by rawTier, fiveMin, hourly).
var tierSQLs = func() []tierSQL {
	out := []tierSQL{rawSQL}
	for _, r := range rollupTiers {
		if r.ranged {
			out = append(out, rollupSQL(r))
		}
	}
	return out
}()

// dailyTier is the daily rollups, which no range query reads.
var dailyTier = rollupSQL(rollupTiers[len(rollupTiers)-1])

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
	why := ""
	for i, t := range tierSQLs {
		var kept time.Time // zero: kept for ever
		if t.retention != nil {
			kept = now.Add(-t.retention(&s.opts))
		}
		switch {
		case from.Before(kept):
			why = fmt.Sprintf("%s are kept for %s", t.kept, formatStep(now.Sub(kept)))
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
