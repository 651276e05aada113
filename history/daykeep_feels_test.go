package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestKeptFeelsLikeDoesNotDependOnTheOtherDaysKept: a day's feels-like
// is the same however it came to be kept. Tried: ten days of a station
// in March and ten in June, every day kept (31 at a time), then a reading
// of a March day and one of a June day written again with their values
// (a re-import), so that the keeper summarises those two days again,
// together. addFeelsLike picked its tier for the span from the first of
// the days it was given to the last (pickTier), so the March day,
// summarised with a June one, had its feels-like from the hourly means
// rather than the 5-minute ones it had before and that a fresh summary
// of the day gives, and its row kept that for ever; each day now picks
// its own.
func TestKeptFeelsLikeDoesNotDependOnTheOtherDaysKept(t *testing.T) {
	march := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	june := time.Date(2026, 6, 20, 0, 0, 0, 0, time.UTC)
	now := june.Add(12 * 24 * time.Hour)
	o := &Options{Now: testutil.FixedClock(now), Location: time.UTC, RollupRetention: 2 * 365 * 24 * time.Hour}
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), o)
	s.w.days.paused.Store(true)
	ctx := context.Background()
	rs := append(keepHouse(march), keepHouse(june)...)
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	day := march.Add(2 * 24 * time.Hour)
	want := dailyJSON(t, s, "Garden", day, day.Add(24*time.Hour))
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := dailyJSON(t, s, "Garden", day, day.Add(24*time.Hour)); got != want {
		t.Fatalf("the Garden on %s as first kept:\n%s\nsummarised from the readings:\n%s", day.Format(time.DateOnly), got, want)
	}
	// The same readings again, one in March and one in June.
	var again []sensors.Reading
	for _, r := range rs {
		if r.Zone == "Garden" && r.Measurement == sensors.Temperature &&
			(r.Time.Equal(day.Add(12*time.Hour)) || r.Time.Equal(june.Add(2*24*time.Hour+12*time.Hour))) {
			again = append(again, r)
		}
	}
	if len(again) != 2 {
		t.Fatalf("%d readings to write again; want 2", len(again))
	}
	if err := s.Record(ctx, sensors.Batch{Readings: again}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := dailyJSON(t, s, "Garden", day, day.Add(24*time.Hour)); got != want {
		t.Errorf("the Garden on %s kept again beside a June day:\n%s\nsummarised from the readings:\n%s", day.Format(time.DateOnly), got, want)
	}
}
