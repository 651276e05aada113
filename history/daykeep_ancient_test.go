package history

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestKeeperAfterAReadingOfYearOne: an import is RFC 3339 and takes any
// year; a spreadsheet that writes an empty date as 0001-01-01 gives one
// such reading. The days before 2000 cannot be asked for (history.Earliest;
// climate://months from 1970), so a history of two readings, one of year
// 1, should be kept at once: that import, then the keeper's ticks
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
	csv := "time,zone,measurement,value,source\n" +
		"0001-01-01T00:00:01Z,Living,Temperature,20,test\n" +
		"2026-12-01T10:00:00Z,Living,Temperature,21,test\n"
	if _, err := s.Import(ctx, strings.NewReader(csv), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
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
