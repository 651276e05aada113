package history

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// storeWith records rs into a fresh store and waits for them to be on disk.
func storeWith(t *testing.T, loc *time.Location, now time.Time, rs []sensors.Reading) *Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(context.Background(), path, &Options{Now: testutil.FixedClock(now), Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	s.Close(context.Background())
	return openTest(t, path, &Options{Now: testutil.FixedClock(now), Location: loc})
}

// compactNow writes what waits and moves complete hours from recent into
// raw and the rollups, as the writer does once an hour.
func compactNow(t testing.TB, s *Store) {
	t.Helper()
	if err := s.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.w.compact(context.Background(), s.opts.Now(), true); err != nil {
		t.Fatal(err)
	}
}

// pruneAll runs retention as of now until nothing past it is left (one
// pass stops after pruneBudget).
func pruneAll(t testing.TB, s *Store, now time.Time) {
	t.Helper()
	for finished := false; !finished; {
		var err error
		if finished, err = s.w.prune(context.Background(), now); err != nil {
			t.Fatal(err)
		}
	}
}

func every(zone string, m sensors.Measurement, from time.Time, n int, step time.Duration, v func(i int) float64) []sensors.Reading {
	rs := make([]sensors.Reading, n)
	for i := range rs {
		rs[i] = sensors.Reading{Zone: zone, Measurement: m, Value: v(i), Time: from.Add(time.Duration(i) * step), Source: "test"}
	}
	return rs
}

func TestRange(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	rs := every("Indoor", sensors.Temperature, t0, 120, time.Minute, func(i int) float64 { return 20 + float64(i)/10 })
	rs = append(rs, every("Rain", sensors.Rain, t0, 24, 5*time.Minute, func(i int) float64 { return 0.1 * float64(i%3) })...)
	s := storeWith(t, time.UTC, t0.Add(2*time.Hour), rs)
	ctx := context.Background()

	got, err := s.Range(ctx, Query{Zone: "Indoor", Measurement: sensors.Temperature, From: t0, To: t0.Add(time.Hour), Step: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Points) != 6 || got.Step != "10m" || got.Note != "" {
		t.Fatalf("points %d, step %s, note %q", len(got.Points), got.Step, got.Note)
	}
	// Bucket 10:10–10:20 holds 21.0 … 21.9.
	if p := got.Points[1]; p[0] != float64(t0.Add(10*time.Minute).Unix()) || p[1] != 21.45 || p[2] != 21.0 || p[3] != 21.9 {
		t.Errorf("second bucket = %v", p)
	}
	sm := got.Summary
	if sm.Count != 60 || sm.Min != 20 || sm.Max != 25.9 || sm.MinTime != t0.Unix() || sm.MaxTime != t0.Add(59*time.Minute).Unix() || sm.Mean != 22.95 || sm.Sum != nil {
		t.Errorf("summary = %+v", *sm)
	}

	rain, err := s.Range(ctx, Query{Zone: "Rain", Measurement: sensors.Rain, From: t0, To: t0.Add(2 * time.Hour), Step: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rain.Columns, ",") != "t,sum" || len(rain.Points) != 2 || rain.Points[0][1] != 1.2 || *rain.Summary.Sum != 2.4 {
		t.Errorf("rain = %+v points %v sum %v", rain, rain.Points, rain.Summary.Sum)
	}
}

func TestRangeIsBounded(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	s := storeWith(t, time.UTC, t0.Add(7*24*time.Hour), every("Indoor", sensors.Temperature, t0, 7*24*60, time.Minute, func(i int) float64 { return 20 }))
	got, err := s.Range(context.Background(), Query{Zone: "Indoor", Measurement: sensors.Temperature, From: t0, To: t0.Add(7 * 24 * time.Hour), Step: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Points) > DefaultMaxPoints || got.Step != "30m" || !strings.Contains(got.Note, "step 1m0s would give up to 10080 points") {
		t.Errorf("%d points at %s, note %q", len(got.Points), got.Step, got.Note)
	}
	auto, _ := s.Range(context.Background(), Query{Zone: "Indoor", Measurement: sensors.Temperature, From: t0, To: t0.Add(7 * 24 * time.Hour), MaxPoints: 100})
	if len(auto.Points) > 100 || auto.Note != "" || auto.Step != "2h" {
		t.Errorf("automatic step: %d points at %s, note %q", len(auto.Points), auto.Step, auto.Note)
	}
	huge, _ := s.Range(context.Background(), Query{Zone: "Indoor", Measurement: sensors.Temperature, From: t0, To: t0.Add(7 * 24 * time.Hour), Step: time.Second, MaxPoints: 1 << 30})
	if len(huge.Points) > MaxPoints {
		t.Errorf("MaxPoints beyond the limit gave %d points", len(huge.Points))
	}
}

func TestRangeErrors(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	s := storeWith(t, time.UTC, t0, append(
		every("Indoor", sensors.Temperature, t0, 2, time.Minute, func(int) float64 { return 20 }),
		every("Balcony", sensors.Humidity, t0, 2, time.Minute, func(int) float64 { return 70 })...))
	cases := []struct {
		q    Query
		want string
	}{
		{Query{Zone: "Attic", Measurement: sensors.Temperature, From: t0, To: t0.Add(time.Hour)}, `unknown zone "Attic"; the zones are Balcony, Indoor`},
		{Query{Zone: "Indoor", Measurement: sensors.CO2, From: t0, To: t0.Add(time.Hour)}, `zone Indoor has no measurement "CO2"; it has Temperature`},
		{Query{Zone: "Indoor", Measurement: sensors.Temperature, From: t0, To: t0}, "is not before"},
		{Query{Zone: "Indoor", Measurement: sensors.Temperature, From: t0, To: t0.Add(time.Hour), Step: -time.Minute}, "step -1m0s: want at least 1s"},
	}
	for _, c := range cases {
		if _, err := s.Range(context.Background(), c.q); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.q, err, c.want)
		}
	}
}

func TestDailyAcrossDST(t *testing.T) {
	berlin := mustLoad(t, "Europe/Berlin")
	start := time.Date(2026, 10, 24, 0, 0, 0, 0, berlin)
	// Hourly readings for three local days: the 25th has 25 hours.
	n := 24 + 25 + 24
	rs := every("Balcony", sensors.Temperature, start, n, time.Hour, func(i int) float64 { return float64(i % 24) })
	rs = append(rs, every("Balcony", sensors.Rain, start, n, time.Hour, func(i int) float64 { return 0.1 })...)
	s := storeWith(t, berlin, start.Add(80*time.Hour), rs)
	days, err := s.Daily(context.Background(), "Balcony", start, start.Add(time.Duration(n)*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 3 || days[1].Date != "2026-10-25" {
		t.Fatalf("days = %+v", days)
	}
	for i, want := range []int{24, 25, 24} {
		temp, rain := days[i].Measurements["Temperature"], days[i].Measurements["Rain"]
		if temp.Count != want || rain.Count != want || *rain.Sum != float64(want)/10 {
			t.Errorf("%s: %d temperature and %d rain readings, %v mm; want %d", days[i].Date, temp.Count, rain.Count, *rain.Sum, want)
		}
		if temp.Sum != nil {
			t.Errorf("%s: temperature has a sum", days[i].Date)
		}
	}
	if d := days[0].Measurements["Temperature"]; d.Min != 0 || d.Max != 23 || d.MaxTime != start.Add(23*time.Hour).Unix() {
		t.Errorf("first day = %+v", d)
	}
	if _, err := s.Daily(context.Background(), "Balcony", start, start.AddDate(2, 0, 0)); err == nil || !strings.Contains(err.Error(), "more than 366 days") {
		t.Errorf("two years: %v", err)
	}
}
