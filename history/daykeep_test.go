package history

import (
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// keepHouse is ten days of a station's outdoor array and a room every 10
// minutes, across the spring change to summer time in Berlin (a 23-hour
// day), rain every hour in the afternoons.
func keepHouse(start time.Time) []sensors.Reading {
	var rs []sensors.Reading
	for i := 0; i < 10*144; i++ {
		at := start.Add(time.Duration(i) * 10 * time.Minute)
		h := float64(at.Hour()) + float64(at.Minute())/60
		day := math.Sin((h - 9) / 24 * 2 * math.Pi)
		add := func(zone string, m sensors.Measurement, v float64) {
			rs = append(rs, sensors.Reading{Zone: zone, Measurement: m, Value: v, Time: at, Source: "station/test"})
		}
		add("Garden", sensors.Temperature, math.Round((8+6*day+float64(i%7)/10)*10)/10)
		add("Garden", sensors.Humidity, math.Round(70-20*day))
		add("Garden", sensors.WindStrength, float64(5+i%11))
		add("Garden", sensors.WindAngle, float64((350+i*7)%360))
		if at.Minute() == 0 && at.Hour() >= 13 && at.Hour() < 17 {
			add("Garden", sensors.Rain, 0.3)
		}
		add("Living", sensors.Temperature, math.Round((21+day)*10)/10)
	}
	return rs
}

// keptCount is how many days of zone are kept.
func keptCount(t testing.TB, s *Store, zone string) int {
	t.Helper()
	var n int
	if err := s.rdb.QueryRow("SELECT count(*) FROM day_summary WHERE zone = ?", zone).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func dailyJSON(t *testing.T, s *Store, zone string, from, to time.Time) string {
	t.Helper()
	days, err := s.Daily(context.Background(), zone, from, to)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(days)
	return string(b)
}

// keptHouse records keepHouse(start) in a history at path opened with
// o, compacts it, keeps its days and closes it.
func keptHouse(t *testing.T, path string, o *Options, start time.Time) {
	t.Helper()
	ctx := context.Background()
	s := openTest(t, path, o)
	if err := s.Record(ctx, sensors.Batch{Readings: keepHouse(start)}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	s.Close(ctx)
}

// TestKeptDaysAnswerAsSummarised: the days kept answer climate://daily
// exactly as they were summarised from the tiers (every measurement, a
// direction's mean, the rain's sum, feels-like, the 23-hour day), the
// writer keeps them by itself on its ticks, and today is never kept.
func TestKeptDaysAnswerAsSummarised(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	start := time.Date(2026, 3, 24, 0, 0, 0, 0, berlin)
	now := start.Add(12*24*time.Hour + 10*time.Hour)
	path := filepath.Join(t.TempDir(), "h.db")
	o := &Options{Now: testutil.FixedClock(now), Location: berlin, FlushInterval: 10 * time.Millisecond}
	s := openTest(t, path, o)
	s.w.days.paused.Store(true) // not yet: first what the tiers say
	if err := s.Record(context.Background(), sensors.Batch{Readings: keepHouse(start)}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	from, to := start.Add(-24*time.Hour), now
	want := map[string]string{}
	for _, z := range []string{"Garden", "Living"} {
		want[z] = dailyJSON(t, s, z, from, to)
	}
	s.Close(context.Background())

	s = openTest(t, path, o)
	if !testutil.Eventually(func() bool { return keptCount(t, s, "Garden") == 12 && keptCount(t, s, "Living") == 12 }) {
		t.Fatalf("kept %d days of the Garden and %d of the Living; want the 12 that ended (11 with readings, 1 without)", keptCount(t, s, "Garden"), keptCount(t, s, "Living"))
	}
	for z, w := range want {
		if got := dailyJSON(t, s, z, from, to); got != w {
			t.Errorf("%s kept:\n%s\nsummarised from the tiers:\n%s", z, got, w)
		}
	}
	var days []Day
	json.Unmarshal([]byte(want["Garden"]), &days)
	if len(days) != 11 || days[5].Date != "2026-03-29" || days[5].Measurements["Temperature"].Count != 138 || days[5].FeelsLike == nil {
		t.Errorf("the Garden's days %d, the sixth %+v; want 11 (the last an hour long), the 23-hour 2026-03-29 with 138 temperatures and feels-like", len(days), days[min(5, len(days)-1)])
	}
}

// TestKeptDayChangedByALateReading: a reading written later for a kept
// day is in the answer at once (the day is read from the tiers while the
// reading waits in recent), and the day is kept again once it is moved on.
func TestKeptDayChangedByALateReading(t *testing.T) {
	start := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(11 * 24 * time.Hour)
	s := storeWith(t, time.UTC, now, keepHouse(start))
	ctx := context.Background()
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	day2 := start.Add(24 * time.Hour)
	late := sensors.Reading{Zone: "Living", Measurement: sensors.Temperature, Value: 35, Time: day2.Add(13*time.Hour + 5*time.Minute), Source: "station/test"}
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{late}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	max := func() float64 {
		days, err := s.Daily(ctx, "Living", day2, day2.Add(24*time.Hour))
		if err != nil || len(days) != 1 {
			t.Fatalf("daily: %v %v", days, err)
		}
		return days[0].Measurements["Temperature"].Max
	}
	if m := max(); m != 35 {
		t.Errorf("the day's highest with the late reading waiting in recent: %g, want 35", m)
	}
	compactNow(t, s)
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	kept, err := s.keptDays(ctx, "Living", day2.Unix(), day2.Unix()+1)
	if err != nil || kept[day2.Unix()].Measurements["Temperature"].Max != 35 {
		t.Errorf("the day kept again: %+v %v; want its highest 35", kept[day2.Unix()], err)
	}
	if m := max(); m != 35 {
		t.Errorf("the day's highest once kept again: %g, want 35", m)
	}
}

// TestKeptDaysFollowTheTimeZone: a hub whose time zone changed deletes
// the days kept in the old one and keeps them again in the new one; and
// forget deletes the kept days it changes.
func TestKeptDaysFollowTheTimeZone(t *testing.T) {
	start := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(11 * 24 * time.Hour)
	path := filepath.Join(t.TempDir(), "h.db")
	ctx := context.Background()
	keptHouse(t, path, &Options{Now: testutil.FixedClock(now), Location: time.UTC}, start)
	tokyo := time.FixedZone("UTC+9", 9*3600)
	log := &testutil.Buffer{}
	s := openTest(t, path, &Options{Now: testutil.FixedClock(now), Location: tokyo, Logger: slog.New(slog.NewTextHandler(log, nil))})
	if n := keptCount(t, s, "Living"); n != 0 {
		t.Errorf("%d days kept in UTC are still kept in UTC+9", n)
	}
	if !strings.Contains(log.String(), "the time zone changed") {
		t.Errorf("the log does not say why the days are summarised again:\n%s", log)
	}
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	days, err := s.Daily(ctx, "Living", start, now)
	if err != nil || len(days) != 11 || days[0].Date != "2026-05-01" || days[0].Measurements["Temperature"].Count != 90 {
		t.Errorf("days in UTC+9: %d, the first %+v, %v; want 11, 2026-05-01 from 09:00 (90 readings)", len(days), days[0], err)
	}
	if _, err := s.Forget(ctx, start.Add(5*24*time.Hour), true); err != nil {
		t.Fatal(err)
	}
	if n := keptCount(t, s, "Living"); n != 5 {
		t.Errorf("after forgetting from the fifth day on, %d days are kept; want the 5 before", n)
	}
}
