package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestKeeperAfterAReadingOfYearOne: a spreadsheet that writes an empty
// date as 0001-01-01 gives one such reading. An import now refuses it
// (a line before Earliest is broken), but a history may hold one (an
// import of before, a source's clock) and the days before 2000 cannot be
// asked for (history.Earliest; climate://months from 1970), so a history
// of two readings, one of year 1, should be kept at once: those two
// recorded, then the keeper's ticks
// (keepDays with keepBudget) for at most 20 s. missingDays walked every
// local day from the zone's first reading, 739,000 of them, and read and
// unmarshalled every kept row of the zone each tick (a tick took
// 0.15-1.1 s and grew with the rows), so the keeper would have taken
// days and filled day_summary with 739,000 empty rows per zone. It now
// starts at the first reading of Earliest or later, the floor the
// readers' times share, and reads only the kept days' keys.
func TestKeeperAfterAReadingOfYearOne(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	s.w.days.paused.Store(true)
	ctx := context.Background()
	rs := []sensors.Reading{
		{Zone: "Living", Measurement: sensors.Temperature, Value: 20, Time: time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC), Source: "test"},
		{Zone: "Living", Measurement: sensors.Temperature, Value: 21, Time: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), Source: "test"},
	}
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	var longest time.Duration
	deadline := time.Now().Add(20 * time.Second)
	for ticks := 1; ; ticks++ {
		start := time.Now()
		done, err := s.keepDays(ctx, s.wdb, keepBudget)
		if err != nil {
			t.Fatal(err)
		}
		longest = max(longest, time.Since(start))
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %d ticks (20 s), the longest %s, the keeper has kept %d days of a zone with two readings and is not done", ticks, longest.Round(time.Millisecond), keptCount(t, s, "Living"))
		}
	}
}
