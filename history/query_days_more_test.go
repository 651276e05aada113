package history

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestRangeInDaysWindThroughNorth: wind that swings between 350° and 10°
// has a mean of north, each day and over the days, in local days as in
// a plain range.
func TestRangeInDaysWindThroughNorth(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(20 * DayStep)
	s := storeWith(t, time.UTC, now, every("Garden", sensors.WindAngle, start, 10*144, 10*time.Minute, func(i int) float64 { return []float64{350, 10}[i%2] }))
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	res, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.WindAngle, From: start, To: now, Days: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 10 || res.Summary == nil || (res.Summary.Mean != 0 && res.Summary.Mean != 360) || res.Summary.Count != 1440 {
		t.Fatalf("%d points, summary %+v; want 10 days, a mean of north over 1440 readings", len(res.Points), res.Summary)
	}
	for _, p := range res.Points {
		if p[1] != 0 && p[1] != 360 {
			t.Errorf("day %v: mean %v; want north", time.Unix(int64(p[0]), 0).UTC(), p[1])
		}
	}
}

// TestRangeInDaysWhileRecording: ranges in local days read while the
// writer records, compacts and keeps days answer without error.
func TestRangeInDaysWhileRecording(t *testing.T) {
	ctx := context.Background()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, berlin)
	now := start.Add(40 * DayStep)
	s := storeWith(t, berlin, now, every("Garden", sensors.Temperature, start, 30*48, 30*time.Minute, func(i int) float64 { return float64(i % 30) }))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				from := start.Add(time.Duration(g*7+i) * time.Hour)
				if _, err := s.Range(ctx, Query{Zone: "Garden", Measurement: sensors.Temperature, From: from, To: now, Days: true}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := range 20 {
		at := start.Add(30*DayStep + time.Duration(i)*time.Hour)
		if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{{Zone: "Garden", Measurement: sensors.Temperature, Value: 5, Time: at, Source: "test"}}}); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
}
