package history

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestDayMemoReadsEachDayOnce: under one memo a day is read once, so a
// reading written between two reads is not seen by the second (as
// without a memo it is), and what a caller deletes from the days it got
// (the resources keep only some measurements) stays in the memo.
func TestDayMemoReadsEachDayOnce(t *testing.T) {
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(2*24*time.Hour + 12*time.Hour)
	rs := every("Garden", sensors.Temperature, start, 2*24+11, time.Hour, func(i int) float64 { return float64(i % 24) })
	s := storeWith(t, time.UTC, now, rs)
	memo := WithDayMemo(context.Background())
	first, err := s.Daily(memo, "Garden", start, now)
	if err != nil || len(first) != 3 {
		t.Fatalf("days %+v, %v; want 3", first, err)
	}
	delete(first[2].Measurements, string(sensors.Temperature))
	hot := sensors.Reading{Zone: "Garden", Measurement: sensors.Temperature, Value: 40, Time: now.Add(-20 * time.Minute), Source: "test"}
	if err := s.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{hot}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	again, err := s.Daily(memo, "Garden", start, now)
	if err != nil {
		t.Fatal(err)
	}
	if tm, ok := again[2].Measurements[string(sensors.Temperature)]; !ok || tm.Max != 10 {
		t.Errorf("today under the memo %+v (%v); want the day as first read, highest 10 °C", tm, ok)
	}
	delete(again[2].Measurements, string(sensors.Temperature))
	if third, err := s.Daily(memo, "Garden", start, now); err != nil || len(third) != 3 || len(third[2].Measurements) != 1 {
		t.Errorf("today read a third time %+v, %v; want its temperature still", third, err)
	}
	fresh, err := s.Daily(context.Background(), "Garden", start, now)
	if err != nil {
		t.Fatal(err)
	}
	if tm := fresh[2].Measurements[string(sensors.Temperature)]; tm.Max != 40 {
		t.Errorf("today without a memo %+v; want the new reading's 40 °C", tm)
	}
}
