package history

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestRangeInDaysRainZeroAndNone: a day whose rain gauge reported none
// has a point of 0 mm; a day without a report has no point; the total
// is the days' and its count their readings, kept or not.
func TestRangeInDaysRainZeroAndNone(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(10 * DayStep)
	var rs []sensors.Reading
	rs = append(rs, every("Garden", sensors.Rain, start.Add(2*time.Hour), 6, time.Hour, func(int) float64 { return 0 })...)         // day 1: dry
	rs = append(rs, every("Garden", sensors.Rain, start.Add(2*DayStep), 4, time.Hour, func(int) float64 { return 0.4 })...)         // day 3: 1.6 mm
	rs = append(rs, every("Garden", sensors.Rain, start.Add(3*DayStep+time.Hour), 2, time.Hour, func(int) float64 { return 0 })...) // day 4: dry
	s := storeWith(t, time.UTC, now, rs)
	for _, keep := range []bool{false, true} {
		if keep {
			if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
				t.Fatal(err)
			}
		}
		res, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Rain, From: start, To: now, Days: true})
		if err != nil {
			t.Fatal(err)
		}
		want := [][]float64{{float64(start.Unix()), 0}, {float64(start.Add(2 * DayStep).Unix()), 1.6}, {float64(start.Add(3 * DayStep).Unix()), 0}}
		if !slices.EqualFunc(res.Points, want, slices.Equal) || res.Summary == nil || *res.Summary.Sum != 1.6 || res.Summary.Count != 12 {
			t.Errorf("kept %v: points %v, summary %+v; want %v, 1.6 mm over 12 readings", keep, res.Points, res.Summary, want)
		}
	}
}
