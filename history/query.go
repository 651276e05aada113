package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// Limits of a range query: every answer fits in a model's context.
const (
	DefaultMaxPoints = 500
	MaxPoints        = 2000
)

// Query asks for one measurement of one zone over [From, To).
type Query struct {
	Zone        string
	Measurement sensors.Measurement
	From, To    time.Time
	Step        time.Duration // bucket width; 0 chooses one that fits MaxPoints
	MaxPoints   int           // 0 means DefaultMaxPoints; at most MaxPoints
	// Days answers in local days of the hub's time zone, from the daily
	// summaries (query_days.go): a point per day overlapping [From, To),
	// at its midnight; the answer's From and To are the first day's
	// start and the last one's end, the days its summary is over. Step is
	// then ignored, unless the days are more than MaxPoints.
	Days bool
}

// Summary describes one measurement over a range (a query's, or a local
// day of Daily's). Sum is set for amounts (rain) only.
type Summary struct {
	Count   int      `json:"count"`
	Min     float64  `json:"min"`
	MinTime int64    `json:"min_time"`
	Max     float64  `json:"max"`
	MaxTime int64    `json:"max_time"`
	Mean    float64  `json:"mean"`
	Sum     *float64 `json:"sum,omitempty"`

	direction bool // a direction's: Min and Max say nothing (MarshalJSON)
}

// MarshalJSON leaves out a direction's extremes: the lowest and highest
// angle of a wind that turned through north are 1° and 359°, which say
// nothing of it.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	if !s.direction {
		return json.Marshal(plain(s))
	}
	return json.Marshal(struct {
		Count int     `json:"count"`
		Mean  float64 `json:"mean"`
	}{s.Count, s.Mean})
}

// Direction reports whether s summarises a direction (mean only).
func (s Summary) Direction() bool { return s.direction }

// Series is the answer to a Query: the summary first, then one row per
// bucket that has readings, laid out as Columns says.
type Series struct {
	Zone        string              `json:"zone"`
	Measurement sensors.Measurement `json:"measurement"`
	Unit        string              `json:"unit"`
	From        int64               `json:"from"`
	To          int64               `json:"to"`
	Step        string              `json:"step"`
	StepSeconds int64               `json:"step_seconds"`
	Tier        string              `json:"tier"`
	Note        string              `json:"note,omitempty"`
	Summary     *Summary            `json:"summary"`
	Columns     []string            `json:"columns"`
	Points      [][]float64         `json:"points"`
}

// niceSteps are the bucket widths an automatic or coarsened step rounds up to.
var niceSteps = []time.Duration{
	time.Second, 10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute,
	15 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour,
	12 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour,
}

func niceStep(min time.Duration) time.Duration {
	for _, s := range niceSteps {
		if s >= min {
			return s
		}
	}
	return min.Round(24 * time.Hour)
}

// fitStep returns the step to answer with and a note when it is coarser
// than the one asked for.
func fitStep(span, asked time.Duration, maxPoints int) (time.Duration, string) {
	need := time.Duration(math.Ceil(float64(span) / float64(maxPoints)))
	if asked == 0 {
		return niceStep(max(need, time.Second)), ""
	}
	if asked >= need {
		return asked, ""
	}
	step := niceStep(need)
	return step, fmt.Sprintf("step %s would give up to %d points, more than the limit of %d: answered at %s",
		asked, int64(span/asked), maxPoints, step)
}

// Range answers q from the raw readings.
func (s *Store) Range(ctx context.Context, q Query) (*Series, error) {
	info, id, err := s.series(ctx, q.Zone, q.Measurement)
	if err != nil {
		return nil, err
	}
	if err := checkQuery(&q); err != nil {
		return nil, err
	}
	tier, step, note := s.rangeStep(q)
	if q.Days && id != 0 {
		// Local days overlapping the range can be one more than its
		// span's days (from mid-day, a 23-hour day): beyond MaxPoints,
		// the step that fits answers.
		if starts := localDays(q.From, q.To, s.opts.Location); len(starts) <= q.MaxPoints {
			return s.rangeDays(ctx, q, info, id, starts)
		}
		step = max(step, niceStep(DayStep+time.Second))
		note = joinNotes(note, fmt.Sprintf("local days would give more points than the limit of %d: answered at %s", q.MaxPoints, formatStep(step)))
	}
	sec := int64(step / time.Second)
	// Readings carry whole seconds, so [From, To) holds those before To
	// rounded up to a whole second: "now" includes this second's readings.
	from, to := q.From.Unix(), q.To.Add(time.Second-1).Unix()

	out := &Series{Zone: q.Zone, Measurement: q.Measurement, Unit: info.Unit, From: from, To: to,
		Step: formatStep(step), StepSeconds: sec, Tier: tier.name, Note: note, Points: [][]float64{}}
	if id == 0 {
		out.Note = "no readings written yet: new readings reach the history within " + s.opts.FlushInterval.String()
		return out, nil
	}
	out.Columns = columns[info.Kind]
	sum, count, err := s.rangeBuckets(ctx, out, tier, id, sec, info.Kind)
	if err != nil {
		return nil, err
	}
	if count == 0 {
		return out, nil
	}
	sm, err := s.summarise(ctx, tier, id, from, to, q.Measurement, info.Kind, count, sum)
	if err != nil {
		return nil, err
	}
	out.Summary = &sm
	return out, nil
}

// columns are the points' columns by kind: an amount's sum per bucket, a
// direction's mean (its low and high say nothing), the others' mean with
// its band.
var columns = map[sensors.Kind][]string{
	sensors.Gauge: {"t", "mean", "min", "max"}, sensors.Health: {"t", "mean", "min", "max"},
	sensors.Amount: {"t", "sum"}, sensors.Direction: {"t", "mean"},
}

// checkQuery checks q's range and step, and brings its MaxPoints within
// the limits.
func checkQuery(q *Query) error {
	if !q.From.Before(q.To) {
		return argError("range", nil, "from %s is not before to %s", q.From.UTC().Format(time.RFC3339), q.To.UTC().Format(time.RFC3339))
	}
	if q.Step < 0 || (q.Step > 0 && q.Step < time.Second) {
		return argError("step", nil, "step %s: want at least 1s, or none to choose one", q.Step)
	}
	if q.MaxPoints <= 0 {
		q.MaxPoints = DefaultMaxPoints
	}
	q.MaxPoints = min(q.MaxPoints, MaxPoints)
	return nil
}

// rangeStep chooses the tier and the step that answer q, with a note when
// the step is coarser than the one asked for.
func (s *Store) rangeStep(q Query) (tierSQL, time.Duration, string) {
	step, note := fitStep(q.To.Sub(q.From), q.Step, q.MaxPoints)
	tier, why := s.pickTier(q.Measurement, q.From, q.To, step)
	if tier.width > step {
		if why == "" {
			why = "the step is below the resolution of " + tier.name
		}
		note = joinNotes(note, fmt.Sprintf("answered at %s: %s", formatStep(tier.width), why))
		step = tier.width
	}
	return tier, step, note
}

// rangeBuckets reads series id's buckets of sec seconds over [out.From,
// out.To) from tier into out.Points, and returns the sum (in the
// measurement's unit) and the count of the readings they hold.
func (s *Store) rangeBuckets(ctx context.Context, out *Series, tier tierSQL, id, sec int64, kind sensors.Kind) (float64, int, error) {
	m := out.Measurement
	div := tier.div(m)
	rows, err := s.readRows(ctx, fmt.Sprintf(`SELECT t / ?1 * ?1 AS b, %s, %s, %s, %s, %s
		FROM %s WHERE series = ?2 AND t >= ?3 AND t < ?4 GROUP BY b ORDER BY b`,
		tier.mean, tier.low, tier.high, tier.sum, tier.count, tier.table), sec, id, out.From, out.To)
	if err != nil {
		return 0, 0, fmt.Errorf("query %s/%s: %w", out.Zone, m, err)
	}
	defer rows.Close()
	var sum float64
	var count int
	for rows.Next() {
		var b int64
		var mean, lo, hi, sm float64
		var n int
		if err := rows.Scan(&b, &mean, &lo, &hi, &sm, &n); err != nil {
			return 0, 0, err
		}
		mean, lo, hi, sm = mean/div, lo/div, hi/div, sm/div
		switch kind {
		case sensors.Amount:
			out.Points = append(out.Points, []float64{float64(b), round(m, sm)})
		case sensors.Direction:
			out.Points = append(out.Points, []float64{float64(b), bearing(roundMore(m, mean))})
		default:
			out.Points = append(out.Points, []float64{float64(b), roundMore(m, mean), round(m, lo), round(m, hi)})
		}
		sum += sm
		count += n
	}
	return sum, count, rows.Err()
}

// summarise completes the Summary of count readings of series id over
// [from, to) whose values add up to sum (in the measurement's unit) with
// their extremes, read from tier.
func (s *Store) summarise(ctx context.Context, tier tierSQL, id, from, to int64, m sensors.Measurement, kind sensors.Kind, count int, sum float64) (Summary, error) {
	st := Summary{Count: count, Mean: roundMore(m, sum/float64(count))}
	if kind == sensors.Direction {
		return s.meanDirection(ctx, tier, id, from, to, m, st)
	}
	if err := s.extreme(ctx, tier, "min", id, from, to, &st.MinTime, &st.Min); err != nil {
		return st, err
	}
	if err := s.extreme(ctx, tier, "max", id, from, to, &st.MaxTime, &st.Max); err != nil {
		return st, err
	}
	div := tier.div(m)
	st.Min, st.Max = round(m, st.Min/div), round(m, st.Max/div)
	if kind == sensors.Amount {
		total := round(m, sum)
		st.Sum = &total
	}
	return st, nil
}

// meanDirection completes st, a direction's Summary over [from, to):
// the mean of its unit vectors, and no extremes.
func (s *Store) meanDirection(ctx context.Context, tier tierSQL, id, from, to int64, m sensors.Measurement, st Summary) (Summary, error) {
	var mean float64
	q := fmt.Sprintf("SELECT %s FROM %s WHERE series = ? AND t >= ? AND t < ?", tier.mean, tier.table)
	if err := s.readRow(ctx, q, id, from, to).Scan(&mean); err != nil {
		return st, err
	}
	st.Mean, st.direction = bearing(roundMore(m, mean/tier.div(m))), true
	return st, nil
}

// bearing is a rounded mean direction in [0, 360): a mean just short of
// north rounds to 360, which is 0.
func bearing(v float64) float64 {
	if v >= 360 {
		return v - 360
	}
	return v
}

// extreme finds the first row with the lowest or highest value in the
// range, using SQLite's rule that a bare column comes from the min/max row.
// In a rollup tier its time is the bucket's start.
func (s *Store) extreme(ctx context.Context, tier tierSQL, fn string, id, from, to int64, t *int64, v *float64) error {
	col := tier.lowCol
	if fn == "max" {
		col = tier.highCol
	}
	q := fmt.Sprintf("SELECT t, %s(%s) FROM %s WHERE series = ? AND t >= ? AND t < ?", fn, col, tier.table)
	return s.readRow(ctx, q, id, from, to).Scan(t, v)
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// round rounds v to the decimals m is shown with.
func round(m sensors.Measurement, v float64) float64 { return m.Round(v, 0) }

// roundMore keeps one more decimal than shown for current values, so that
// means of whole-number measurements still say something.
func roundMore(m sensors.Measurement, v float64) float64 { return m.Round(v, 1) }

func formatStep(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

// series finds the id of a zone's measurement, or says which zones and
// measurements there are.
func (s *Store) series(ctx context.Context, zone string, m sensors.Measurement) (sensors.Info, int64, error) {
	var id int64
	err := s.readRow(ctx, "SELECT id FROM series WHERE zone = ? AND measurement = ?", zone, string(m)).Scan(&id)
	if err == nil {
		info, _ := sensors.Lookup(m)
		return info, id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return sensors.Info{}, 0, fmt.Errorf("look up %s/%s: %w", zone, m, err)
	}
	zs, err := s.zoneSeries(ctx)
	if err != nil {
		return sensors.Info{}, 0, err
	}
	for _, z := range zs {
		if z.Name == zone {
			if slices.Contains(z.Measurements, m) {
				// Recorded but not yet written: an empty answer, not an error.
				info, _ := sensors.Lookup(m)
				return info, 0, nil
			}
			names := make([]string, len(z.Measurements))
			for i, mi := range z.Measurements {
				names[i] = string(mi)
			}
			return sensors.Info{}, 0, argError("measurement", names, "zone %s has no measurement %q; it has %s", zone, m, strings.Join(names, ", "))
		}
	}
	zones := zoneNames(zs)
	return sensors.Info{}, 0, argError("zone", zones, "unknown zone %q; the zones are %s", zone, strings.Join(zones, ", "))
}
