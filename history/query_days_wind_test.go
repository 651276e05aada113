package history

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestRangeInDaysWindOnlyAfterTo: a range in local days that ends at
// noon of a day whose wind was all measured in the afternoon answers,
// without an error.
func TestRangeInDaysWindOnlyAfterTo(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 6, 3, 13, 0, 0, 0, time.UTC)
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	s := storeWith(t, time.UTC, now, every("Garden", sensors.WindAngle, start, 30, 10*time.Minute, func(i int) float64 { return 90 }))
	from, to := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 6, 3, 12, 0, 0, 0, time.UTC)
	for _, keep := range []bool{false, true} {
		if keep {
			if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
				t.Fatal(err)
			}
		}
		res, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.WindAngle, From: from, To: to, Days: true})
		if err != nil {
			t.Fatalf("days kept %v: %v", keep, err)
		}
		if res.Summary != nil && res.Summary.Count > 0 && res.Summary.Mean != 90 {
			t.Errorf("days kept %v: summary %+v; want none, or the wind's 90°", keep, res.Summary)
		}
	}
}
