package history

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestRangeInDaysSummaryAsPlainOverWholeDays: over whole local days, the
// summary of a range in local days is a plain range's: the count, the
// lowest and highest with their times, the mean and the rain's total,
// kept days or not.
func TestRangeInDaysSummaryAsPlainOverWholeDays(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	ctx := context.Background()
	start := time.Date(2025, 11, 28, 0, 0, 0, 0, berlin)
	now := time.Date(2026, 12, 2, 15, 30, 0, 0, berlin)
	s := storeWith(t, berlin, now, yearHouse(start))
	from, to := time.Date(2026, 3, 10, 0, 0, 0, 0, berlin), time.Date(2026, 4, 20, 0, 0, 0, 0, berlin)
	for _, keep := range []bool{false, true} {
		if keep {
			if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range []sensors.Measurement{sensors.Temperature, sensors.Rain, sensors.WindAngle} {
			days, err := s.Range(ctx, Query{Zone: "Garden", Measurement: m, From: from, To: to, Days: true})
			if err != nil {
				t.Fatal(err)
			}
			plain, err := s.Range(ctx, Query{Zone: "Garden", Measurement: m, From: from, To: to, Step: time.Hour, MaxPoints: MaxPoints})
			if err != nil {
				t.Fatal(err)
			}
			a, b := *days.Summary, *plain.Summary
			sumEq := (a.Sum == nil) == (b.Sum == nil) && (a.Sum == nil || *a.Sum == *b.Sum)
			a.Sum, b.Sum = nil, nil
			if a != b || !sumEq {
				t.Errorf("%s kept %v: summary %+v (sum %v); a plain range's %+v (sum %v)", m, keep, a, days.Summary.Sum, b, plain.Summary.Sum)
			}
		}
	}
}
