package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestReadOnlyStoreInAnotherTimeZoneReadsItsOwnDays: a read-only store
// (climated mcp on stdio, climated data) reads the days the writer kept;
// its time zone comes from its own configuration and environment, and
// may not be the writer's (the config's timezone changed while serve
// runs, or "Local" differs between the service and the user's shell).
// Tried: days kept by a hub on UTC, read by a read-only store on
// Europe/London across 2026-03-29, London's 23-hour day that starts at
// the same instant as UTC's. A hole: OpenReadOnly does not compare its
// time zone with day_summary_zone, and readDays takes any kept row that
// starts at one of its local midnights: the reader answers its 23-hour
// day with the writer's 24-hour row.
func TestReadOnlyStoreInAnotherTimeZoneReadsItsOwnDays(t *testing.T) {
	london, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	start := time.Date(2026, 3, 25, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 4, 8, 12, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "h.db")
	ctx := context.Background()
	from, to := time.Date(2026, 3, 28, 0, 0, 0, 0, london), time.Date(2026, 3, 31, 0, 0, 0, 0, london)

	// What the readings give in London, nothing kept.
	s := openTest(t, path, &Options{Now: testutil.FixedClock(now), Location: london})
	s.w.days.paused.Store(true)
	if err := s.Record(ctx, sensors.Batch{Readings: keepHouse(start)}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	want := dailyJSON(t, s, "Living", from, to)
	s.Close(ctx)

	// The hub runs on UTC and keeps its days.
	s = openTest(t, path, &Options{Now: testutil.FixedClock(now), Location: time.UTC})
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	s.Close(ctx)

	ro, err := OpenReadOnly(ctx, path, &Options{Now: testutil.FixedClock(now), Location: london})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close(ctx)
	if got := dailyJSON(t, ro, "Living", from, to); got != want {
		t.Errorf("the Living from 2026-03-28 to 03-30 read in London beside a hub on UTC:\n%s\nsummarised from the readings in London:\n%s", got, want)
	}
}
