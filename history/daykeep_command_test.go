package history

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestCommandInAnotherZoneLeavesTheKeptDays: a store opened for a
// command (an import) in another time zone than the one the days are
// kept in deletes none of them at Open and keeps none; an import that
// fails changes none, one that succeeds deletes those it changes (in the
// zone they are kept in), and the hub then keeps again exactly what the
// tiers say.
func TestCommandInAnotherZoneLeavesTheKeptDays(t *testing.T) {
	start := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(11 * 24 * time.Hour)
	path := filepath.Join(t.TempDir(), "h.db")
	ctx := context.Background()
	hub := &Options{Now: testutil.FixedClock(now), Location: time.UTC}
	keptHouse(t, path, hub, start)

	c := openTest(t, path, &Options{Now: testutil.FixedClock(now), Location: time.FixedZone("UTC+9", 9*3600), Command: true})
	if n := keptCount(t, c, "Living"); n != 11 {
		t.Fatalf("%d days of the Living kept once a command opened the history in UTC+9; want the 11 kept in UTC", n)
	}
	// 20:00 UTC on the fourth day: the fifth in UTC+9.
	at := start.Add(3*24*time.Hour + 20*time.Hour)
	late := ImportRow{Line: 2, Readings: []sensors.Reading{{Zone: "Living", Measurement: sensors.Temperature, Value: 36, Time: at, Source: "station/test"}}}
	broken := ImportRow{Line: 3, Err: errors.New("broken")}
	if _, err := c.ImportRows(ctx, &listRows{rows: []ImportRow{late, broken}}, ImportOptions{}); err == nil {
		t.Fatal("an import with a broken row imported")
	}
	if n := keptCount(t, c, "Living"); n != 11 {
		t.Errorf("a failed import left %d days of the Living kept; want the 11", n)
	}
	if _, err := c.ImportRows(ctx, &listRows{rows: []ImportRow{late}}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	var gone int
	c.rdb.QueryRow("SELECT count(*) FROM day_summary WHERE zone = 'Living' AND day = ?", start.Add(3*24*time.Hour).Unix()).Scan(&gone)
	if gone != 0 || keptCount(t, c, "Living") == 0 {
		t.Errorf("after the import, the UTC day it changed kept: %d; days of the Living kept: %d (want the changed one deleted, others kept)", gone, keptCount(t, c, "Living"))
	}
	c.Close(ctx)

	s := openTest(t, path, hub)
	if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
		t.Fatal(err)
	}
	kept := dailyJSON(t, s, "Living", start, now)
	if _, err := s.wdb.ExecContext(ctx, "DELETE FROM day_summary"); err != nil {
		t.Fatal(err)
	}
	if fresh := dailyJSON(t, s, "Living", start, now); kept != fresh {
		t.Errorf("the kept days after the import:\n%s\nsummarised from the tiers:\n%s", kept, fresh)
	}
}

// listRows are an import's rows from a list.
type listRows struct{ rows []ImportRow }

func (l *listRows) Next(context.Context) (ImportRow, error) {
	if len(l.rows) == 0 {
		return ImportRow{}, io.EOF
	}
	r := l.rows[0]
	l.rows = l.rows[1:]
	return r, nil
}
