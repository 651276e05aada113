package history

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestRangeInDaysAfterMeasuredTakesSimulated: once a measured reading
// takes a simulated series, its days (kept before) hold none of the
// simulated readings: the range in local days has the measured one only.
func TestRangeInDaysAfterMeasuredTakesSimulated(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(10 * DayStep)
	rs := every("Garden", sensors.Temperature, start, 5*24, time.Hour, func(int) float64 { return 30 })
	for i := range rs {
		rs[i].Source = sensors.SimulatedPrefix + "test"
	}
	s := storeWith(t, time.UTC, now, rs)
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	if keptCount(t, s, "Garden") == 0 {
		t.Fatal("no days kept")
	}
	measured := now.Add(-2 * time.Hour)
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "Garden", Measurement: sensors.Temperature, Value: 20, Time: measured, Source: "test"}}}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	res, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Temperature, From: start, To: now, Days: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 1 || res.Summary == nil || res.Summary.Count != 1 || res.Summary.Max != 20 || res.Summary.Min != 20 {
		t.Errorf("points %v, summary %+v; want the one measured reading", res.Points, res.Summary)
	}
}
