package history

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

func openTest(t testing.TB, path string, opts *Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// snapshotOf is the structure that the live state rebuilt from s would
// give: what s has recorded, flushed, read back by Windows and shaped.
func snapshotOf(t testing.TB, s *Store) *climate.Snapshot {
	t.Helper()
	ctx := context.Background()
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	ws, err := s.Windows(ctx, climate.DefaultWindow)
	if err != nil {
		t.Fatal(err)
	}
	l := climate.New(&climate.Options{Now: s.opts.Now, Location: s.opts.Location})
	l.Load(ws...)
	return l.Snapshot()
}

// rawCount reads the database file through a connection of its own.
func rawCount(t testing.TB, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM " + rawView).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestOpenSetsWALAndSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "dir", "h.db")
	s := openTest(t, path, nil)
	var mode string
	var version int
	if err := s.rdb.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if err := s.rdb.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	steps, _ := OwnSchema.steps()
	taken, err := stepsTaken(context.Background(), s.rdb, "history")
	if mode != "wal" || version != stepsVersion || err != nil || taken != len(steps) || taken < 2 {
		t.Errorf("journal_mode %q, user_version %d, history's steps %d (%v); want wal, %d, %d", mode, version, taken, err, stepsVersion, len(steps))
	}
}

func TestFlushWithoutClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, &Options{FlushInterval: 20 * time.Millisecond})
	now := time.Now()
	err := s.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{
		{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21, Time: now, Source: "t"},
		{Zone: "Indoor", Measurement: sensors.Humidity, Value: 40, Time: now, Source: "t"},
	}})

	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for rawCount(t, path) != 2 {
		if time.Now().After(deadline) {
			t.Fatal("readings not flushed within 5 s with a 20 ms flush interval")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRecordRejectsInvalidKeepsValid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	now := time.Unix(1_800_000_000, 0)
	s := openTest(t, path, &Options{Now: testutil.FixedClock(now)})
	err := s.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{
		{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21.04, Time: now, Source: "a"},
		{Zone: "Indoor", Measurement: sensors.Humidity, Value: 140, Time: now, Source: "b"},
		{Zone: "", Measurement: sensors.CO2, Value: 500, Time: now, Source: "c"},
		{Zone: "Indoor", Measurement: "Radiance", Value: 1, Time: now, Source: "d"},
	}})

	if err == nil {
		t.Fatal("no error for invalid readings")
	}
	for _, want := range []string{`Humidity: 140 % is outside 0…100`, `from "c": zone "": empty`, `unknown measurement "Radiance"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	c := snapshotOf(t, s).Climate
	if got := c["Indoor"]["Temperature"]; got != 21.0 {
		t.Errorf("valid reading lost: Temperature = %v", got)
	}
	if _, ok := c["Indoor"]["Humidity"]; ok {
		t.Error("invalid humidity was recorded")
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := rawCount(t, path); n != 1 {
		t.Errorf("%d rows on disk, want 1", n)
	}
}

func TestAmountsAddUpGaugesReplace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	now := time.Unix(1_800_000_000, 0)
	s := openTest(t, path, &Options{Now: testutil.FixedClock(now)})
	ctx := context.Background()
	for _, v := range []float64{0.2, 0.3} {
		if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{
			{Zone: "Rain", Measurement: sensors.Rain, Value: v, Time: now, Source: "gauge"},
			{Zone: "Rain", Measurement: sensors.BatteryPercent, Value: v * 100, Time: now, Source: "gauge"},
		}}); err != nil {
			t.Fatal(err)
		}
	}
	check := func(c climate.Structure) {
		t.Helper()
		if got := c["Rain"]["Rain"]; got != 0.5 {
			t.Errorf("Rain = %v, want 0.5 (two tips in one second add up)", got)
		}
		if got := c["Rain"]["battery_percent"]; got != 30.0 {
			t.Errorf("battery_percent = %v, want 30 (a gauge replaces)", got)
		}
	}
	check(snapshotOf(t, s).Climate)
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	check(snapshotOf(t, openTest(t, path, &Options{Now: testutil.FixedClock(now)})).Climate)
}

func TestOpenBadPaths(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	garbage := bytes.Repeat([]byte("this is not a database\n"), 200)
	if err := os.WriteFile(notDB, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	fileAsDir := filepath.Join(dir, "file")
	if err := os.WriteFile(fileAsDir, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path, want string
	}{
		{"not a database", notDB, "not an SQLite database"},
		{"a directory", dir, "is a directory"},
		{"parent is a file", filepath.Join(fileAsDir, "h.db"), "create database directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Open(context.Background(), c.path, nil)
			if err == nil {
				s.Close(context.Background())
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path) {
				t.Errorf("error %q should name the path and say %q", err, c.want)
			}
		})
	}
	// The file that was not a database is left as it was.
	if got, _ := os.ReadFile(notDB); !bytes.Equal(got, garbage) {
		t.Error("Open changed a file that is not a database")
	}
}

func TestRecordAfterClose(t *testing.T) {
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), nil)
	s.Close(context.Background())
	err := s.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{{Zone: "Z", Measurement: sensors.Temperature, Value: 1, Time: time.Now()}}})
	if err != sensors.ErrStopped {
		t.Errorf("Record after Close = %v, want ErrStopped", err)
	}
}

// TestCloseOnTimeoutStillClosesTheDatabase: when the final flush does not
// finish in time, Close says so and closes the database all the same,
// rather than leave its connections (and the writer's lock) open.
func TestCloseOnTimeoutStillClosesTheDatabase(t *testing.T) {
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), &Options{FlushInterval: time.Hour, BatchSize: 1 << 30})
	now := time.Now().Truncate(time.Minute)
	if err := s.Record(context.Background(), sensors.Batch{Readings: every("Indoor", sensors.Temperature, now.Add(-50_000*time.Second), 50_000, time.Second, func(i int) float64 { return 20 + float64(i%50)/10 })}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Close(ctx)
	if err == nil {
		t.Skip("the final flush finished before Close looked at its context")
	}
	if !strings.Contains(err.Error(), "final flush") {
		t.Errorf("Close = %v, want it to name the final flush", err)
	}
	if err := s.rdb.PingContext(context.Background()); err == nil {
		t.Error("the readers' pool is still open after Close")
	}
}
