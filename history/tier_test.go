package history

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestRollupsFollowRaw: the rollup tiers hold exactly the aggregates of the
// raw readings, however the readings were batched.
func TestRollupsFollowRaw(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	rs := every("Balcony", sensors.Temperature, t0, 180, time.Minute, func(i int) float64 { return 15 + math.Sin(float64(i)/9) })
	rs = append(rs, every("Rain", sensors.Rain, t0, 36, 5*time.Minute, func(i int) float64 { return 0.2794 * float64(i%4) })...)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(t0.Add(3 * time.Hour))})
	ctx := context.Background()
	for i := 0; i < len(rs); i += 37 { // uneven batches
		if err := s.Record(ctx, sensors.Batch{Readings: rs[i:min(i+37, len(rs))]}); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	compactNow(t, s)
	for _, tier := range rollupTiers {
		q := `SELECT r.series, r.t - r.t % ?1, count(*), sum(r.v), min(r.v), max(r.v), x.n, x.total, x.lo, x.hi, s.measurement
			FROM raw r JOIN series s ON s.id = r.series
			JOIN ` + tier.table + ` x ON x.series = r.series AND x.t = r.t - r.t % ?1
			GROUP BY r.series, r.t - r.t % ?1`
		rows, err := s.rdb.Query(q, int64(tier.width/time.Second))
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for rows.Next() {
			var series, bt, n, xn int64
			var sum, lo, hi, xt, xlo, xhi float64
			var m string
			if err := rows.Scan(&series, &bt, &n, &sum, &lo, &hi, &xn, &xt, &xlo, &xhi, &m); err != nil {
				t.Fatal(err)
			}
			sc := scaleOf(sensors.Measurement(m))
			if n != xn || math.Abs(sum/sc-xt) > 1e-6 || math.Abs(lo/sc-xlo) > 1e-9 || math.Abs(hi/sc-xhi) > 1e-9 {
				t.Errorf("%s bucket %d of series %d: raw n=%d sum=%g lo=%g hi=%g, rollup n=%d sum=%g lo=%g hi=%g",
					tier.table, bt, series, n, sum/sc, lo/sc, hi/sc, xn, xt, xlo, xhi)
			}
			checked++
		}
		rows.Close()
		if want := 180*60/int(tier.width) + 36*300/int(tier.width); checked != want && tier.width == 300 {
			t.Errorf("%s: %d buckets compared, want %d", tier.table, checked, want)
		}
		if checked == 0 {
			t.Errorf("%s: no buckets", tier.table)
		}
	}
}

// TestLongRangesReadRollups: a month at 500 points comes from the
// 5-minute tier, with the same numbers the raw readings give.
func TestLongRangesReadRollups(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	end := t0.Add(30 * 24 * time.Hour)
	s := storeWith(t, time.UTC, end, every("Indoor", sensors.CO2, t0, 30*24*60, time.Minute, func(i int) float64 { return 400 + float64(i%1440)/2 }))
	ctx := context.Background()
	got, err := s.Range(ctx, Query{Zone: "Indoor", Measurement: sensors.CO2, From: t0, To: end, MaxPoints: 500})
	if err != nil {
		t.Fatal(err)
	}
	if got.Tier != "5-minute rollups" || got.Step != "2h" || len(got.Points) != 360 {
		t.Fatalf("tier %s, step %s, %d points", got.Tier, got.Step, len(got.Points))
	}
	// The 10:00–12:00 bucket of the first day: minutes 600…719.
	p := got.Points[5]
	// Means keep one decimal more than CO2's whole ppm.
	if p[1] != 729.8 || p[2] != 700 || p[3] != 760 {
		t.Errorf("bucket %v, want mean 729.8 (729.75) min 700 max 760 (759.5)", p)
	}
	if got.Summary.Count != 30*24*60 || got.Summary.Min != 400 || got.Summary.Max != 1120 {
		t.Errorf("summary %+v", *got.Summary)
	}
}

// TestRetention: raw readings past their retention go, the rollups stay,
// and a query for the old part says where its answer came from.
func TestRetention(t *testing.T) {
	now := time.Date(2026, 6, 2, 0, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, &Options{Now: testutil.FixedClock(now), RawRetention: 6 * time.Hour})
	ctx := context.Background()
	if err := s.Record(ctx, sensors.Batch{Readings: every("Indoor", sensors.Temperature, now.Add(-24*time.Hour), 24*60, time.Minute, func(int) float64 { return 21 })}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	pruneAll(t, s, now)
	var oldest int64
	var n, buckets int
	s.rdb.QueryRow("SELECT min(t), count(*) FROM raw").Scan(&oldest, &n)
	s.rdb.QueryRow("SELECT count(*) FROM rollup_5m").Scan(&buckets)
	if oldest < now.Add(-6*time.Hour).Unix() || n != 6*60 || buckets != 24*12 {
		t.Errorf("after pruning: oldest raw %s, %d raw rows, %d 5-minute buckets; want 360 raw rows from %s and 288 buckets",
			time.Unix(oldest, 0).UTC(), n, buckets, now.Add(-6*time.Hour))
	}
	got, err := s.Range(ctx, Query{Zone: "Indoor", Measurement: sensors.Temperature, From: now.Add(-20 * time.Hour), To: now.Add(-19 * time.Hour), Step: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if got.Tier != "5-minute rollups" || len(got.Points) != 12 || !strings.Contains(got.Note, "raw readings are kept for 6h") {
		t.Errorf("old range: tier %s, %d points, note %q", got.Tier, len(got.Points), got.Note)
	}
}

// TestMigrationFromVersion1 opens a database written by the first schema
// (REAL values, no rollups) and finds the same values, now with rollups.
func TestMigrationFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	steps, _ := OwnSchema.steps()
	if _, err := db.Exec(steps[0].sql); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC).Unix()
	db.Exec("INSERT INTO series (id, zone, measurement, source) VALUES (1, 'Indoor', 'Temperature', 'v1'), (2, 'Rain', 'Rain', 'v1')")
	for i := int64(0); i < 120; i++ {
		db.Exec("INSERT INTO raw VALUES (1, ?, ?)", t0+60*i, 20.5+float64(i)/100)
		db.Exec("INSERT INTO raw VALUES (2, ?, 0.2794)", t0+60*i)
	}
	db.Exec("PRAGMA user_version = 1")
	db.Close()

	s := openTest(t, path, &Options{Now: testutil.FixedClock(time.Unix(t0+7200, 0))})
	got, err := s.Range(context.Background(), Query{Zone: "Indoor", Measurement: sensors.Temperature, From: time.Unix(t0, 0), To: time.Unix(t0+7200, 0), Step: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary.Count != 120 || got.Summary.Min != 20.5 || got.Summary.Max != 21.7 || len(got.Points) != 2 {
		t.Errorf("after migration: %+v %v", *got.Summary, got.Points)
	}
	rain, _ := s.Range(context.Background(), Query{Zone: "Rain", Measurement: sensors.Rain, From: time.Unix(t0, 0), To: time.Unix(t0+7200, 0), Step: time.Hour})
	if *rain.Summary.Sum != round(sensors.Rain, 120*0.2794) {
		t.Errorf("rain after migration = %v, want %v", *rain.Summary.Sum, 120*0.2794)
	}
	var buckets int
	s.rdb.QueryRow("SELECT count(*) FROM rollup_1h").Scan(&buckets)
	if buckets != 4 {
		t.Errorf("%d hourly buckets after migration, want 4", buckets)
	}
}

// TestDailyTierMigration: the history's step 007_daily_rollups fills the daily tier of an
// existing history from its hourly one: what it makes is what the writer
// keeps, bucket for bucket, directions' vector sums included.
func TestDailyTierMigration(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	rs := every("Garden", sensors.Temperature, t0, 3*24*6, 10*time.Minute, func(i int) float64 { return 10 + math.Sin(float64(i)/20) })
	rs = append(rs, every("Garden", sensors.WindAngle, t0, 3*24*6, 10*time.Minute, func(i int) float64 { return float64(i * 37 % 360) })...)
	rs = append(rs, every("Rain", sensors.Rain, t0, 3*24, time.Hour, func(i int) float64 { return 0.2794 * float64(i%3) })...)
	s := storeWith(t, time.UTC, t0.Add(80*time.Hour), rs)
	const q = "SELECT series, t, n, round(total, 6), lo, hi, round(coalesce(cs, 9), 6), round(coalesce(sn, 9), 6) FROM rollup_1d ORDER BY series, t"
	read := func() string {
		rows, err := s.rdb.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var v [8]any
			ptrs := make([]any, len(v))
			for i := range v {
				ptrs[i] = &v[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, v[:]...)
		}
		return b.String()
	}
	written := read()
	if strings.Count(written, "\n") != 9 {
		t.Fatalf("the writer's daily buckets: %d, want 3 days of 3 series:\n%s", strings.Count(written, "\n"), written)
	}
	body, err := migrationFiles.ReadFile("migrations/007_daily_rollups.sql")
	if err != nil {
		t.Fatal(err)
	}
	fill := string(body[strings.Index(string(body), "INSERT INTO rollup_1d"):])
	if _, err := s.wdb.Exec("DELETE FROM rollup_1d; " + fill); err != nil {
		t.Fatal(err)
	}
	if migrated := read(); migrated != written {
		t.Errorf("migration 007_daily_rollups fills\n%s\nthe writer keeps\n%s", migrated, written)
	}
}
