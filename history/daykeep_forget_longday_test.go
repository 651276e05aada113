package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestForgetInADayOfTwentySixHours: forget deletes every kept day that
// holds a reading it deletes. Antarctica/Troll keeps summer time of two
// hours (+02 to +00), so 2026-10-25 there lasts 26 hours, 22:00 UTC on
// the 24th to midnight UTC on the 26th. Tried: its days kept, then everything
// after 2026-10-25 23:30 UTC forgotten. A hole: Forget deletes the kept
// days that start after `after` less 25 hours, "a local day lasts at
// most 25 hours" (forget.go); the 26-hour day starts 25 h 30 min before
// and keeps the half hour of readings forgotten, for ever.
func TestForgetInADayOfTwentySixHours(t *testing.T) {
	troll, err := time.LoadLocation("Antarctica/Troll")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	start := time.Date(2026, 10, 20, 0, 0, 0, 0, troll)
	now := time.Date(2026, 11, 5, 12, 0, 0, 0, troll)
	day := time.Date(2026, 10, 25, 0, 0, 0, 0, troll)
	if d := time.Date(2026, 10, 26, 0, 0, 0, 0, troll).Sub(day); d != 26*time.Hour {
		t.Fatalf("2026-10-25 in Troll lasts %s; want 26h", d)
	}
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: troll})
	s.w.days.paused.Store(true)
	ctx := context.Background()
	if err := s.Record(ctx, sensors.Batch{Readings: keepHouse(start)}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	after := time.Date(2026, 10, 25, 23, 30, 0, 0, time.UTC)
	if _, err := s.Forget(ctx, after, true); err != nil {
		t.Fatal(err)
	}
	got := dailyJSON(t, s, "Living", day, day.Add(time.Hour))
	if _, err := s.wdb.ExecContext(ctx, "DELETE FROM day_summary"); err != nil {
		t.Fatal(err)
	}
	if want := dailyJSON(t, s, "Living", day, day.Add(time.Hour)); got != want {
		t.Errorf("the Living on 2026-10-25 in Troll after forgetting from 23:30 UTC, as kept:\n%s\nsummarised from the readings left:\n%s", got, want)
	}
}
