package history

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// pausedRows is an import of one row that, once the import holds the
// writer's connection (its transaction has begun), lets pause run before
// the row is read.
type pausedRows struct {
	pause func()
	row   ImportRow
	done  bool
}

func (p *pausedRows) Next(context.Context) (ImportRow, error) {
	if p.done {
		return ImportRow{}, io.EOF
	}
	p.done = true
	p.pause()
	return p.row, nil
}

// TestKeptDayNotStaleAfterImportDuringKeeping: the keeper summarises a
// day (liveDays, on the readers' connections) before it begins its
// transaction on the writer's connection; an import from another
// goroutine (hub.Import, a CSV or weewx import with the hub running)
// that commits a reading for that day in between finds no kept row to
// delete, and the keeper then writes the summary it made before the
// import. Tried: the keeper reads the day, blocks on the connection
// the import holds, the import writes a 36 °C reading and commits. A
// hole: the day is kept without the reading, and since it is kept the
// keeper never looks at it again, so climate://daily misses the import's
// reading for that day for ever.
func TestKeptDayNotStaleAfterImportDuringKeeping(t *testing.T) {
	start := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(11 * 24 * time.Hour)
	s := storeWith(t, time.UTC, now, keepHouse(start))
	ctx := context.Background()
	if !testutil.Eventually(func() bool { return keptCount(t, s, "Living") == 11 }) {
		t.Fatalf("kept %d days of the Living; want 11", keptCount(t, s, "Living"))
	}
	day2 := start.Add(24 * time.Hour)
	// The day is not kept (an earlier write deleted it): the next keeping
	// summarises it.
	if _, err := s.wdb.ExecContext(ctx, "DELETE FROM day_summary WHERE zone = 'Living' AND day = ?", day2.Unix()); err != nil {
		t.Fatal(err)
	}
	kept := make(chan error, 1)
	rows := &pausedRows{
		row: ImportRow{Line: 2, Readings: []sensors.Reading{{Zone: "Living", Measurement: sensors.Temperature, Value: 36,
			Time: day2.Add(13*time.Hour + 7*time.Minute), Source: "station/test"}}},
		pause: func() {
			waits := s.wdb.Stats().WaitCount
			go func() {
				_, err := s.keepDays(ctx, s.wdb, time.Hour)
				kept <- err
			}()
			// The keeper has summarised the day and waits for the
			// connection the import holds.
			if !testutil.Eventually(func() bool { return s.wdb.Stats().WaitCount > waits }) {
				t.Error("the keeper never waited for the writer's connection")
			}
		},
	}
	if _, err := s.ImportRows(ctx, rows, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := <-kept; err != nil {
		t.Fatal(err)
	}
	// Let the writer's own keeper have its turns (the import marked the
	// days stale).
	time.Sleep(2500 * time.Millisecond)
	days, err := s.Daily(ctx, "Living", day2, day2.Add(24*time.Hour))
	if err != nil || len(days) != 1 {
		t.Fatalf("daily: %v %v", days, err)
	}
	if m := days[0].Measurements["Temperature"].Max; m != 36 {
		t.Errorf("the day's highest after the import: %g, want the imported 36 (the kept day is stale)", m)
	}
}
