package history

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestTotals: a zone's total of rain is every reading once, in integers
// of its resolution, whether compaction has moved it into the hourly
// buckets or it waits in recent: a day of 0.2794 mm tips every 5 minutes
// (288 of them, 80.4672 mm), then three more tips in the current hour that
// compaction leaves alone.
func TestTotals(t *testing.T) {
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	day := every("Garden", sensors.Rain, t0, 288, 5*time.Minute, func(int) float64 { return 0.2794 })
	now := t0.Add(24*time.Hour + 20*time.Minute)
	s := storeWith(t, time.UTC, now, day) // compacted: in the hourly buckets
	ctx := context.Background()
	late := every("Garden", sensors.Rain, t0.Add(24*time.Hour), 3, 5*time.Minute, func(int) float64 { return 0.2794 })
	late = append(late, sensors.Reading{Zone: "Shed", Measurement: sensors.Rain, Value: 1.5, Time: now, Source: "test"},
		sensors.Reading{Zone: "Shed", Measurement: sensors.Temperature, Value: 12, Time: now, Source: "test"})
	if err := s.Record(ctx, sensors.Batch{Readings: late}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := s.Totals(ctx, sensors.Rain)
	if err != nil {
		t.Fatal(err)
	}
	// 291 tips of 2794 ten-thousandths; Shed 15000.
	if got["Garden"] != 291*2794 || got["Shed"] != 15000 || len(got) != 2 {
		t.Errorf("totals %v, want Garden %d and Shed 15000", got, 291*2794)
	}
}
