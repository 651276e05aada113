package history

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// gapHouse is a room every 10 minutes from from for days days.
func gapHouse(from time.Time, days int) []sensors.Reading {
	return every("Living", sensors.Temperature, from, days*144, 10*time.Minute, func(i int) float64 { return 20 + float64(i%50)/10 })
}

// TestDailyAcrossAMidnightThatDoesNotExist: in Chile (America/Santiago)
// summer time begins at midnight: 2026-09-06 starts at 01:00, 00:00 does
// not exist. climate://daily over the week around it must answer its
// days. Tried: Daily from 2026-09-03 to 2026-09-09 in Santiago (and in
// Havana across 2026-03-08 and the Azores across 2026-03-29, the same
// rule, every year). A hole: time.Date for the
// missing midnight normalises to 23:00 of the day before, so
// nextMidnight of that instant is the instant itself; dayStarts repeats
// it until MaxDays and refuses a week as "a range of more than 366 days"
// (and YearOf, climate://months, refuses the whole year).
func TestDailyAcrossAMidnightThatDoesNotExist(t *testing.T) {
	for _, c := range []struct {
		zone     string
		from, to time.Time
	}{
		{"America/Santiago", time.Date(2026, 9, 3, 0, 0, 0, 0, time.UTC), time.Date(2026, 9, 9, 0, 0, 0, 0, time.UTC)},
		{"America/Havana", time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 11, 0, 0, 0, 0, time.UTC)},
		{"Atlantic/Azores", time.Date(2026, 3, 26, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(c.zone, func(t *testing.T) {
			loc, err := time.LoadLocation(c.zone)
			if err != nil {
				t.Skip("no tzdata:", err)
			}
			from := time.Date(c.from.Year(), c.from.Month(), c.from.Day(), 0, 0, 0, 0, loc)
			to := time.Date(c.to.Year(), c.to.Month(), c.to.Day(), 0, 0, 0, 0, loc)
			now := to.Add(3 * 24 * time.Hour)
			s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{Now: testutil.FixedClock(now), Location: loc})
			s.w.days.paused.Store(true) // the keeper loops for ever on that day: see TestKeeperAcrossAMidnightThatDoesNotExist
			ctx := context.Background()
			if err := s.Record(ctx, sensors.Batch{Readings: gapHouse(from, 6)}); err != nil {
				t.Fatal(err)
			}
			compactNow(t, s)
			days, err := s.Daily(ctx, "Living", from, to)
			if err != nil {
				t.Fatalf("daily over the 6 days from %s in %s: %v", from.Format(time.DateOnly), c.zone, err)
			}
			if len(days) != 6 {
				var dates []string
				for _, d := range days {
					dates = append(dates, d.Date)
				}
				t.Errorf("daily over 6 days in %s: %d days %v; want 6", c.zone, len(days), dates)
			}
			if _, err := s.YearOf(ctx, "Living", 2026); err != nil {
				t.Errorf("the year 2026 in %s: %v", c.zone, err)
			}
		})
	}
}

// TestKeeperAcrossAMidnightThatDoesNotExist: a hub in Chile whose
// history holds 2026-09-06 (a day whose midnight does not exist) must go
// on writing. Tried, in a child process whose address space is bounded
// (3 GB) so that the machine does not suffer: a store in
// America/Santiago with a week of readings across that day, opened on
// 2026-09-12; then a reading recorded and flushed. A hole: the keeper's
// missingDays walks the days with nextMidnight and no bound, so it stays
// on 2026-09-05 23:00 for ever, appending it to its list, in the
// writer's goroutine: the writer never flushes again and the process
// runs out of memory within seconds.
func TestKeeperAcrossAMidnightThatDoesNotExist(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("bounds the child's memory with RLIMIT_AS")
	}
	loc, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	if os.Getenv("CLIMATED_GAP_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKeeperAcrossAMidnightThatDoesNotExist$", "-test.timeout=60s")
		cmd.Env = append(os.Environ(), "CLIMATED_GAP_CHILD=1", "GOTRACEBACK=single")
		out, err := cmd.CombinedOutput()
		if err != nil {
			msg := string(out)
			if i := strings.Index(msg, "fatal error"); i >= 0 {
				var where []string
				for _, l := range strings.Split(msg[i:], "\n") {
					if strings.Contains(l, "climated/history.") && len(where) < 3 {
						where = append(where, strings.TrimSpace(l))
					}
				}
				msg = strings.SplitN(msg[i:], "\n", 2)[0] + " in\n" + strings.Join(where, "\n")
			} else if len(msg) > 600 {
				msg = msg[:600]
			}
			t.Fatalf("the hub in Santiago with 2026-09-06 in its history: %v\n%s", err, msg)
		}
		return
	}
	lim := &syscall.Rlimit{Cur: 3 << 30, Max: 3 << 30}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, lim); err != nil {
		t.Skip("cannot bound the address space:", err)
	}
	from := time.Date(2026, 9, 3, 0, 0, 0, 0, loc)
	now := time.Date(2026, 9, 12, 12, 0, 0, 0, loc)
	path := filepath.Join(t.TempDir(), "h.db")
	o := &Options{Now: testutil.FixedClock(now), Location: loc}
	s := openTest(t, path, o)
	s.w.days.paused.Store(true)
	ctx := context.Background()
	if err := s.Record(ctx, sensors.Batch{Readings: gapHouse(from, 6)}); err != nil {
		t.Fatal(err)
	}
	compactNow(t, s)
	s.Close(ctx)

	s = openTest(t, path, o)
	time.Sleep(2 * keepEvery) // the keeper's turns
	late := sensors.Reading{Zone: "Living", Measurement: sensors.Temperature, Value: 21, Time: now.Add(-time.Hour), Source: "test"}
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{late}}); err != nil {
		t.Fatal(err)
	}
	fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.Flush(fctx); err != nil {
		t.Fatalf("flush with the keeper at work: %v (the writer is stuck)", err)
	}
}
