package history

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// beforeAggregates is, per table and series, the count and sums of the
// rows stamped at or before after: for a rollup, of the buckets that end
// at or before it. Read through a connection of its own.
func beforeAggregates(t *testing.T, db *sql.DB, after int64) map[string]string {
	t.Helper()
	out := map[string]string{}
	queries := map[string]string{
		"raw":       "SELECT series, count(*), sum(v), 0, 0, 0 FROM raw WHERE t <= ?1 GROUP BY series",
		"recent":    "SELECT series, count(*), sum(v), 0, 0, 0 FROM recent WHERE t <= ?1 GROUP BY series",
		"rollup_5m": "SELECT series, count(*), sum(n), sum(total), min(lo), max(hi) FROM rollup_5m WHERE t + 299 <= ?1 GROUP BY series",
		"rollup_1h": "SELECT series, count(*), sum(n), sum(total), min(lo), max(hi) FROM rollup_1h WHERE t + 3599 <= ?1 GROUP BY series",
		"rollup_1d": "SELECT series, count(*), sum(n), sum(total), min(lo), max(hi) FROM rollup_1d WHERE t + 86399 <= ?1 GROUP BY series",
	}
	for table, q := range queries {
		rows, err := db.Query(q, after)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id, n int64
			var a, b, c, d float64
			if err := rows.Scan(&id, &n, &a, &b, &c, &d); err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("%s/%d", table, id)] = fmt.Sprint(n, a, b, c, d)
		}
		rows.Close()
	}
	return out
}

// dump is every row of the history's tables, in order.
func dump(t *testing.T, db *sql.DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		"SELECT series, t, v, 0, 0, 0 FROM raw ORDER BY 1, 2", "SELECT series, t, v, 0, 0, 0 FROM recent ORDER BY 1, 2",
		"SELECT series, t, n, total, lo, hi FROM rollup_5m ORDER BY 1, 2", "SELECT series, t, n, total, lo, hi FROM rollup_1h ORDER BY 1, 2",
		"SELECT series, t, n, total, lo, hi FROM rollup_1d ORDER BY 1, 2",
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id, ts int64
			var a, c, d, e float64
			rows.Scan(&id, &ts, &a, &c, &d, &e)
			fmt.Fprintln(&b, id, ts, a, c, d, e)
		}
		rows.Close()
	}
	return b.String()
}

// TestForgetAfter: a history whose clock was a year ahead while it
// recorded (raw and both rollups hold readings after the time, and a 5-
// minute and two hourly buckets straddle it), with more readings after
// the time waiting in recent. A dry run reports them table by table and
// series by series and changes nothing; applied, it deletes exactly
// those: every table's rows at or before the time are as they were, the
// straddling buckets hold their readings up to the time, and no reading
// is left ahead of the clock.
func TestForgetAfter(t *testing.T) {
	ctx := context.Background()
	base := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	after := base.Add(17*time.Minute + 30*time.Second)
	ahead := base.AddDate(1, 0, 0)
	path := filepath.Join(t.TempDir(), "h.db")
	temp := func(i int) float64 { return 15 + float64(i%37)/4 }
	rain := func(i int) float64 { return 0.1 * float64(i%4) }
	long := &Options{RawRetention: 3 * 365 * 24 * time.Hour, RollupRetention: 3 * 365 * 24 * time.Hour}

	// The clock a year ahead: everything recorded goes on into raw and
	// the rollups.
	o := *long
	o.Now = testutil.FixedClock(ahead.Add(2 * time.Hour))
	s := openTest(t, path, &o)
	past := every("Indoor", sensors.Temperature, base.Add(-3*time.Hour), 211, time.Minute, temp) // to base+30m
	past = append(past, every("Garden", sensors.Rain, base.Add(-3*time.Hour), 43, 5*time.Minute, rain)...)
	if err := s.Record(ctx, sensors.Batch{Readings: append(past, every("Indoor", sensors.Temperature, ahead, 7, 10*time.Minute, temp)...)}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	s.Close(ctx)
	// The clock set right: the current hour's readings and one a year
	// ahead wait in recent.
	o.Now = testutil.FixedClock(base)
	s = openTest(t, path, &o)
	if err := s.Record(ctx, sensors.Batch{Readings: append(every("Indoor", sensors.Humidity, base.Add(5*time.Minute), 36, time.Minute, temp),
		reading("Indoor", sensors.Temperature, 20, ahead.Add(5*time.Hour)))}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)

	db := otherProcess(t, path)
	was, wasBefore := dump(t, db), beforeAggregates(t, db, after.Unix())
	if a, _ := s.Ahead(ctx, after.Add(-climate.MaxAhead)); a.Count != 47 {
		t.Fatalf("before: %d readings ahead, want 47", a.Count)
	}
	dry, err := s.Forget(ctx, after, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := dump(t, db); got != was {
		t.Errorf("the dry run changed the history")
	}
	checkForgetReport(t, dry, base, ahead)

	done, err := s.Forget(ctx, after, true)
	if err != nil {
		t.Fatal(err)
	}
	if !done.Applied || dry.Applied {
		t.Errorf("Applied: dry run %v, applied %v", dry.Applied, done.Applied)
	}
	done.Applied = false
	if !reflect.DeepEqual(done, dry) {
		t.Errorf("applied, it reports\n%+v\nthe dry run\n%+v", done, dry)
	}
	if got := beforeAggregates(t, db, after.Unix()); !reflect.DeepEqual(got, wasBefore) {
		t.Errorf("the rows up to the time changed:\nbefore %v\nafter  %v", wasBefore, got)
	}
	for _, table := range []string{"raw", "recent", "rollup_5m", "rollup_1h", "rollup_1d"} {
		var n int
		db.QueryRow(fmt.Sprintf("SELECT count(*) FROM %s WHERE t > ?", table), after.Unix()).Scan(&n)
		if n != 0 {
			t.Errorf("%s holds %d rows after the time", table, n)
		}
	}
	checkSplit(t, db, "rollup_5m", "Indoor", sensors.Temperature, base.Add(15*time.Minute), past[195:198])
	checkSplit(t, db, "rollup_1h", "Indoor", sensors.Temperature, base, past[180:198])
	checkSplit(t, db, "rollup_1h", "Garden", sensors.Rain, base, past[211+36:211+40])
	checkSplit(t, db, "rollup_1d", "Indoor", sensors.Temperature, base.Truncate(24*time.Hour), past[:198])
	checkSplit(t, db, "rollup_5m", "Garden", sensors.Rain, base.Add(15*time.Minute), past[211+39:211+40])
	if a, _ := s.Ahead(ctx, after.Add(-climate.MaxAhead)); a.Count != 0 {
		t.Errorf("after: %d readings ahead of the clock, from %v to %v", a.Count, a.First, a.Last)
	}
	if again, err := s.Forget(ctx, after, true); err != nil || len(again.Rows)+len(again.Split) != 0 {
		t.Errorf("again: %+v %v", again, err)
	}
}

func checkForgetReport(t *testing.T, r ForgetReport, base, ahead time.Time) {
	t.Helper()
	at := func(d time.Duration) time.Time { return base.Add(d) }
	want := []ForgetRows{
		{"raw", "Garden", sensors.Rain, 3, 3, at(20 * time.Minute), at(30 * time.Minute)},
		{"raw", "Indoor", sensors.Temperature, 20, 20, at(18 * time.Minute), ahead.Add(time.Hour)},
		{"recent", "Indoor", sensors.Humidity, 23, 23, at(18 * time.Minute), at(40 * time.Minute)},
		{"recent", "Indoor", sensors.Temperature, 1, 1, ahead.Add(5 * time.Hour), ahead.Add(5 * time.Hour)},
		{"rollup_5m", "Garden", sensors.Rain, 3, 3, at(20 * time.Minute), at(30 * time.Minute)},
		{"rollup_5m", "Indoor", sensors.Temperature, 10, 18, at(20 * time.Minute), ahead.Add(time.Hour)},
		{"rollup_1h", "Indoor", sensors.Temperature, 2, 7, ahead, ahead.Add(time.Hour)},
		{"rollup_1d", "Indoor", sensors.Temperature, 1, 7, ahead.Truncate(24 * time.Hour), ahead.Truncate(24 * time.Hour)},
	}
	if !reflect.DeepEqual(r.Rows, want) {
		t.Errorf("rows:\n got %+v\nwant %+v", r.Rows, want)
	}
	split := []SplitBucket{
		{"rollup_5m", "Indoor", sensors.Temperature, at(15 * time.Minute), 5, 3, false},
		{"rollup_1h", "Garden", sensors.Rain, base, 7, 4, false},
		{"rollup_1h", "Indoor", sensors.Temperature, base, 31, 18, false},
		{"rollup_1d", "Garden", sensors.Rain, base.Truncate(24 * time.Hour), 43, 40, false},
		{"rollup_1d", "Indoor", sensors.Temperature, base.Truncate(24 * time.Hour), 211, 198, false},
	}
	if !reflect.DeepEqual(r.Split, split) {
		t.Errorf("split buckets:\n got %+v\nwant %+v", r.Split, split)
	}
	if r.Readings() != 47 {
		t.Errorf("Readings() = %d, want 47", r.Readings())
	}
}

// checkSplit: the bucket of zone/m at start holds exactly the readings rs.
func checkSplit(t *testing.T, db *sql.DB, table, zone string, m sensors.Measurement, start time.Time, rs []sensors.Reading) {
	t.Helper()
	var n int64
	var total, lo, hi float64
	err := db.QueryRow(fmt.Sprintf("SELECT n, total, lo, hi FROM %s r JOIN series s ON s.id = r.series WHERE s.zone = ? AND s.measurement = ? AND r.t = ?", table),
		zone, string(m), start.Unix()).Scan(&n, &total, &lo, &hi)
	if err != nil {
		t.Fatalf("%s %s/%s at %v: %v", table, zone, m, start, err)
	}
	want := bucket{low: math.Inf(1), high: math.Inf(-1)}
	for _, r := range rs {
		v := decode(m, float64(encode(m, r.Value)))
		want.n++
		want.total += v
		want.low, want.high = min(want.low, v), max(want.high, v)
	}
	if n != want.n || math.Abs(total-want.total) > 1e-9 || lo != want.low || hi != want.high {
		t.Errorf("%s %s/%s at %v: n %d total %v lo %v hi %v; want %+v", table, zone, m, start, n, total, lo, hi, want)
	}
}

// TestForgetKeepsWhatItCannotSplit: the time is older than the raw
// retention, so the buckets that straddle it no longer have the raw
// readings that would split them: they are kept whole, and said to be;
// raw's readings after the time and the buckets that begin after it go.
func TestForgetKeepsWhatItCannotSplit(t *testing.T) {
	ctx := context.Background()
	base := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, &Options{Now: testutil.FixedClock(base), RawRetention: time.Hour})
	if err := s.Record(ctx, sensors.Batch{Readings: every("Indoor", sensors.Temperature, base.Add(-3*time.Hour), 180, time.Minute, func(i int) float64 { return float64(i) / 10 })}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	pruneAll(t, s, base)
	db := otherProcess(t, path)
	after := base.Add(-2*time.Hour + 150*time.Second)
	wasBefore := beforeAggregates(t, db, after.Unix())
	r, err := s.Forget(ctx, after, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []ForgetRows{
		{"raw", "Indoor", sensors.Temperature, 60, 60, base.Add(-time.Hour), base.Add(-time.Minute)},
		{"rollup_5m", "Indoor", sensors.Temperature, 23, 115, base.Add(-2*time.Hour + 5*time.Minute), base.Add(-5 * time.Minute)},
		{"rollup_1h", "Indoor", sensors.Temperature, 1, 60, base.Add(-time.Hour), base.Add(-time.Hour)},
	}
	split := []SplitBucket{
		{"rollup_5m", "Indoor", sensors.Temperature, base.Add(-2 * time.Hour), 5, 5, true},
		{"rollup_1h", "Indoor", sensors.Temperature, base.Add(-2 * time.Hour), 60, 60, true},
		{"rollup_1d", "Indoor", sensors.Temperature, base.Truncate(24 * time.Hour), 180, 180, true},
	}
	if !reflect.DeepEqual(r.Rows, want) || !reflect.DeepEqual(r.Split, split) {
		t.Errorf("report:\n got %+v\n     %+v\nwant %+v\n     %+v", r.Rows, r.Split, want, split)
	}
	if got := beforeAggregates(t, db, after.Unix()); !reflect.DeepEqual(got, wasBefore) {
		t.Errorf("the rows up to the time changed:\nbefore %v\nafter  %v", wasBefore, got)
	}
	checkSplit(t, db, "rollup_5m", "Indoor", sensors.Temperature, base.Add(-2*time.Hour), every("", sensors.Temperature, base, 5, 0, func(i int) float64 { return float64(60+i) / 10 }))
}
