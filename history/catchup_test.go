package history

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors"
)

// The compaction tests run the real writer in a synctest bubble: its
// ticker fires every FlushInterval of the bubble's clock, and tick lets
// one fire and waits until the writer is done with it.

// openBubble opens a store in the bubble that keeps every raw reading, so
// the tiers can be compared whatever the backlog's age.
func openBubble(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), &Options{Location: time.UTC, RawRetention: 20 * 365 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func tick(t *testing.T, s *Store) {
	t.Helper()
	time.Sleep(s.opts.FlushInterval)
	synctest.Wait()
}

// fullPace has the writer's compaction steps start at compactRows, where
// the pace would reach it after a few steps: in the bubble no step takes
// time (its clock stands still), so the pace only grows, and the tests
// that count ticks count them at full pace. It is set before the first
// Record, whose Flush orders it before the writer's next step.
func fullPace(s *Store) { setPace(s, compactRows) }

func setPace(s *Store, rows int) {
	s.w.pace.mu.Lock()
	defer s.w.pace.mu.Unlock()
	s.w.pace.rows = rows
}

// recordAll records rs and waits until they are in the database.
func recordAll(t *testing.T, s *Store, rs []sensors.Reading) {
	t.Helper()
	ctx := context.Background()
	if err := s.Record(ctx, sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestCompactCatchesUpInProportion: a month of 5-minute readings of four
// series arriving at once (34,560 readings over 720 hours) is compacted
// within ceil(34,560 / compactRows) ticks. Before, compaction moved an
// hour a tick and took 720.
func TestCompactCatchesUpInProportion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := openBubble(t)
		defer s.Close(context.Background())
		now := time.Now()
		from := now.Add(-30 * 24 * time.Hour).Truncate(time.Hour)
		var rs []sensors.Reading
		for i, zone := range []string{"Living", "Bedroom"} {
			rs = append(rs, every(zone, sensors.Temperature, from, 8640, 5*time.Minute, func(j int) float64 { return float64(15 + (i+j)%10) })...)
			rs = append(rs, every(zone, sensors.Humidity, from, 8640, 5*time.Minute, func(j int) float64 { return float64(40 + (i+j)%30) })...)
		}
		fullPace(s)
		recordAll(t, s, rs)
		bound := (len(rs) + compactRows - 1) / compactRows
		for ticks := 1; ticks <= bound; ticks++ {
			tick(t, s)
		}
		if left := backlog(t, s, time.Now()); left > 0 {
			t.Fatalf("after %d ticks, %d of the %d readings still wait in recent", bound, left, len(rs))
		}
		checkTiers(t, s, rs)
	})
}

// TestCompactCatchUpKeepsEveryReading: a backlog whose steps end inside an
// hour and inside 5-minute buckets (an hour of readings every second, rain
// among them), caught up within its bound of ticks: every reading is in
// raw once, each bucket of both rollups holds exactly what raw holds for
// it, and at every tick of the catch-up a range read across the tiers
// counts every reading once.
func TestCompactCatchUpKeepsEveryReading(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := openBubble(t)
		defer s.Close(context.Background())
		now := time.Now()
		from := now.Add(-10 * 24 * time.Hour).Truncate(time.Hour)
		rs := every("Attic", sensors.Temperature, from, 2880, 5*time.Minute, func(j int) float64 { return 10 + float64(j%97)/10 })
		rs = append(rs, every("Garden", sensors.Rain, from, 2880, 5*time.Minute, func(j int) float64 { return 0.2 * float64(j%4) })...)
		dense := from.Add(24 * time.Hour)
		rs = append(rs, every("Attic", sensors.Humidity, dense, 3600, time.Second, func(j int) float64 { return float64(30 + j%41) })...)
		rs = append(rs, every("Cellar", sensors.Temperature, dense, 3600, time.Second, func(j int) float64 { return 8 + float64(j%53)/10 })...)
		rs = append(rs, every("Garden", sensors.Rain, dense.Add(time.Second/2), 3600, time.Second, func(j int) float64 { return 0.1 * float64(j%3) })...)
		fullPace(s)
		recordAll(t, s, rs)
		bound := (len(rs) + compactRows - 1) / compactRows
		for ticks := 1; ticks <= bound; ticks++ {
			tick(t, s)
			checkCounts(t, s, rs, fmt.Sprintf("after tick %d", ticks))
		}
		if left := backlog(t, s, time.Now()); left > 0 {
			t.Fatalf("after %d ticks, %d of the %d readings still wait in recent", bound, left, len(rs))
		}
		checkTiers(t, s, rs)
	})
}

// TestCompactStepIsBounded: an hour of 25,200 readings (seven series, one
// a second) is moved at most compactRows readings a tick, each step its
// own transaction, and between the steps the writer records and flushes
// a new reading while the rest of the backlog still waits. Before, the
// first tick moved the whole hour in one transaction.
func TestCompactStepIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := openBubble(t)
		defer s.Close(context.Background())
		ctx := context.Background()
		hour := time.Now().Add(-compactAge - time.Hour).Truncate(time.Hour)
		var rs []sensors.Reading
		for z := range 7 {
			rs = append(rs, every(fmt.Sprintf("Room %d", z), sensors.Temperature, hour, 3600, time.Second, func(j int) float64 { return 18 + float64((j+z)%40)/10 })...)
		}
		fullPace(s)
		recordAll(t, s, rs)
		left := backlog(t, s, time.Now())
		for step := 1; left > 0; step++ {
			if step > len(rs)/compactRows+1 {
				t.Fatalf("%d readings still wait after %d ticks", left, step-1)
			}
			tick(t, s)
			now := backlog(t, s, time.Now())
			if moved := left - now; moved > compactRows || moved <= 0 {
				t.Fatalf("tick %d moved %d readings, want 1 to %d (compactRows)", step, moved, compactRows)
			}
			left = now
			if left == 0 {
				break
			}
			// The writer is free between steps: a new reading is recorded,
			// flushed and read back while the backlog waits.
			r := sensors.Reading{Zone: "Hall", Measurement: sensors.Temperature, Value: 20 + float64(step), Time: time.Now(), Source: "test"}
			recordAll(t, s, []sensors.Reading{r})
			got, err := s.Range(ctx, Query{Zone: "Hall", Measurement: sensors.Temperature, From: r.Time, To: r.Time.Add(time.Second)})
			if err != nil || got.Summary == nil || got.Summary.Max != r.Value {
				t.Fatalf("tick %d: the reading recorded during catch-up reads back as %+v, %v", step, got.Summary, err)
			}
			if backlog(t, s, time.Now()) != left {
				t.Fatalf("tick %d: the flush compacted too", step)
			}
		}
		checkTiers(t, s, rs)
	})
}
