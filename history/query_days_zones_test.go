package history

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// TestRangeInDaysAcrossTimeZones: in zones whose clocks change by half
// an hour, at midnight, or never by a whole hour, a range in local days
// has one point per day Daily gives, at the day's start, with Daily's
// values, whether the days are kept or worked out.
func TestRangeInDaysAcrossTimeZones(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		zone  string
		start time.Time // UTC
	}{
		{"America/Santiago", time.Date(2026, 8, 25, 0, 0, 0, 0, time.UTC)},
		{"Australia/Lord_Howe", time.Date(2026, 9, 25, 0, 0, 0, 0, time.UTC)},
		{"America/New_York", time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)},
		{"Asia/Kolkata", time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)},
		{"Asia/Beirut", time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC)},
	} {
		loc, err := time.LoadLocation(c.zone)
		if err != nil {
			t.Skip("no tzdata:", err)
		}
		now := c.start.Add(30 * 24 * time.Hour)
		rs := every("Garden", sensors.Temperature, c.start, 20*96, 15*time.Minute, func(i int) float64 { return float64(i%37) / 2 })
		rs = append(rs, every("Garden", sensors.WindAngle, c.start, 20*96, 15*time.Minute, func(i int) float64 { return float64((350 + i*7) % 360) })...)
		s := storeWith(t, loc, now, rs)
		from, to := c.start.Add(7*time.Hour), c.start.Add(19*24*time.Hour+5*time.Hour)
		for _, kept := range []bool{false, true} {
			if kept {
				if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
					t.Fatal(err)
				}
			}
			days, err := s.Daily(ctx, "Garden", from, to)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []sensors.Measurement{sensors.Temperature, sensors.WindAngle} {
				res, err := s.Range(ctx, Query{Zone: "Garden", Measurement: m, From: from, To: to, Days: true, MaxPoints: MaxPoints})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Points) != len(days) {
					t.Errorf("%s %s kept %v: %d points, %d days", c.zone, m, kept, len(res.Points), len(days))
					continue
				}
				for i, p := range res.Points {
					d, _ := time.Parse(time.DateOnly, days[i].Date)
					y, mo, dd := d.Date()
					st := days[i].Measurements[string(m)]
					want := []float64{float64(climate.DayStart(y, mo, dd, loc).Unix()), st.Mean, st.Min, st.Max}[:len(p)]
					if !slices.Equal(p, want) {
						t.Errorf("%s %s kept %v on %s: point %v; want %v", c.zone, m, kept, days[i].Date, p, want)
					}
				}
			}
		}
	}
}
