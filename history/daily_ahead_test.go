package history

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestDailyOfReadingsAhead: Daily leaves out, without summarising them,
// the days after the hour of a zone's newest reading (the rest of the
// year YearOf reads); readings stamped ahead of the clock are still in
// their days, one in the first minutes of a day that begins within an
// hour (Asia/Kolkata's midnight is at half past the hour in UTC) too.
func TestDailyOfReadingsAhead(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: loc})
	s.w.days.paused.Store(true)
	ctx := context.Background()
	csv := "time,zone,measurement,value,source\n" +
		"2026-12-05T10:00:00Z,Living,Temperature,21,test\n" +
		"2026-12-05T18:40:00Z,Living,Temperature,22,test\n" + // 00:10 on the 6th in Kolkata
		"2027-03-01T06:00:00Z,Kitchen,Temperature,23,test\n"
	if _, err := s.Import(ctx, strings.NewReader(csv), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	y, err := s.YearOf(ctx, "Kitchen", 2027)
	if err != nil || len(y.Months) != 1 || y.Months[0].Period != "2027-03" {
		t.Errorf("the Kitchen's year 2027: %v, %v; want March", y.Months, err)
	}
	days, err := s.Daily(ctx, "Living", time.Date(2026, 12, 5, 0, 0, 0, 0, loc), time.Date(2026, 12, 31, 0, 0, 0, 0, loc))
	var dates []string
	for _, d := range days {
		dates = append(dates, d.Date)
	}
	if err != nil || strings.Join(dates, " ") != "2026-12-05 2026-12-06" {
		t.Errorf("December from the 5th: %v, %v; want the 5th and the 6th", dates, err)
	}
}
