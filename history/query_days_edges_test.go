package history

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestRangeInDaysNeverMorePointsThanAsked: a range answered in local days
// holds no more points than MaxPoints, whether the range starts mid-day or
// takes in a 23-hour day, as every other range answer does.
func TestRangeInDaysNeverMorePointsThanAsked(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	ctx := context.Background()
	start := time.Date(2026, 3, 15, 0, 0, 0, 0, berlin)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, berlin)
	s := storeWith(t, berlin, now, every("Garden", sensors.Temperature, start, 30*24, time.Hour, func(i int) float64 { return float64(i % 20) }))
	for _, c := range []struct {
		name     string
		from     time.Time
		n        int
		maxPoint int
	}{
		{"from local midnight over the 23-hour day", time.Date(2026, 3, 25, 0, 0, 0, 0, berlin), 10, 10},
		{"from mid-day", time.Date(2026, 3, 16, 12, 0, 0, 0, berlin), 10, 10},
		{"a day from mid-day", time.Date(2026, 3, 17, 12, 0, 0, 0, berlin), 1, 1},
	} {
		to := c.from.Add(time.Duration(c.n) * DayStep)
		res, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Temperature, From: c.from, To: to, Days: true, MaxPoints: c.maxPoint})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Points) > c.maxPoint {
			t.Errorf("%s: %d points (step %s, tier %s); want at most %d", c.name, len(res.Points), res.Step, res.Tier, c.maxPoint)
		}
	}
}

// TestRangeInDaysSaysTheDaysItSummarises: a range in local days from
// mid-day to noon of the third day answers the three whole days, and says
// so: its From and To are the first day's start and the last day's end,
// and its summary is a plain range's over them (the afternoon of the
// third day, after the To asked, included). A plain range at a step of a
// day keeps to [from, to): only a range that asks for local days reads
// them.
func TestRangeInDaysSaysTheDaysItSummarises(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	// Three days of a reading every 10 minutes, the afternoons far warmer.
	s := storeWith(t, time.UTC, now, every("Garden", sensors.Temperature, start, 3*144, 10*time.Minute, func(i int) float64 {
		if h := start.Add(time.Duration(i) * 10 * time.Minute).Hour(); h >= 13 {
			return 30
		}
		return 10
	}))
	from, to := start.Add(6*time.Hour), start.Add(2*DayStep+12*time.Hour) // to: noon of the third day
	res, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Temperature, From: from, To: to, Days: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.From != start.Unix() || res.To != start.Add(3*DayStep).Unix() || len(res.Points) != 3 {
		t.Fatalf("local days from %s to %s: [%d, %d) in %d points; want the three whole days [%d, %d)", from, to, res.From, res.To, len(res.Points), start.Unix(), start.Add(3*DayStep).Unix())
	}
	whole, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Temperature, From: time.Unix(res.From, 0), To: time.Unix(res.To, 0), Step: 12 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if *res.Summary != *whole.Summary {
		t.Errorf("summary %+v; a plain range's over the days it says %+v", res.Summary, whole.Summary)
	}
	plain, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Temperature, From: from, To: to, Step: DayStep})
	if err != nil {
		t.Fatal(err)
	}
	if sm := plain.Summary; plain.Tier == daysTier || sm == nil || sm.MaxTime >= to.Unix() || sm.MinTime < from.Unix() {
		t.Errorf("a plain range at a step of a day: tier %s, summary %+v; want [%d, %d) alone", plain.Tier, sm, from.Unix(), to.Unix())
	}
}
