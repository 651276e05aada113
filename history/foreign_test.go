package history

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// otherProcess is a connection of its own to the database, as a second
// process (an old climated import, a sqlite3 shell) would have.
func otherProcess(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// onDisk counts the readings of zone/m in the database, joined through
// series by name so that readings under a wrong id do not count.
func onDisk(t *testing.T, db *sql.DB, zone string, m sensors.Measurement) int {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM "+rawView+" r JOIN series s ON s.id = r.series WHERE s.zone = ? AND s.measurement = ?", zone, string(m)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func reading(zone string, m sensors.Measurement, v float64, at time.Time) sensors.Reading {
	return sensors.Reading{Zone: zone, Measurement: m, Value: v, Time: at, Source: "test"}
}

// TestForeignSeriesIsAdopted: a series another process created (an import
// beside the hub, a second instance) is adopted by the hub's next write of
// it, and recording goes on for every zone (a foreign file once stopped it).
func TestForeignSeriesIsAdopted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, &Options{FlushInterval: time.Hour})
	ctx := context.Background()
	now := time.Now().Truncate(time.Second)
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{reading("Indoor", sensors.Temperature, 21, now.Add(-time.Minute))}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	other := otherProcess(t, path)
	if _, err := other.Exec("INSERT INTO series (zone, measurement, source) VALUES ('Attic', 'Temperature', 'import')"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		at := now.Add(time.Duration(i) * time.Second)
		if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{reading("Attic", sensors.Temperature, 15, at), reading("Indoor", sensors.Temperature, 21, at)}}); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatalf("flush %d after another process created Attic/Temperature: %v", i, err)
		}
	}
	if err := s.Health(); err != nil {
		t.Errorf("Health: %v", err)
	}
	if got := onDisk(t, other, "Attic", sensors.Temperature); got != 3 {
		t.Errorf("%d Attic readings on disk, want 3", got)
	}
	if got := onDisk(t, other, "Indoor", sensors.Temperature); got != 4 {
		t.Errorf("%d Indoor readings on disk, want 4", got)
	}
	var series int
	if err := other.QueryRow("SELECT count(*) FROM series WHERE zone = 'Attic'").Scan(&series); err != nil || series != 1 {
		t.Errorf("%d Attic series (%v), want the one the other process created", series, err)
	}
}

// TestImportAdoptsForeignSeries: the import path finds a series another
// process created as the writer does.
func TestImportAdoptsForeignSeries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, nil)
	other := otherProcess(t, path)
	if _, err := other.Exec("INSERT INTO series (zone, measurement, source) VALUES ('Attic', 'Humidity', 'old')"); err != nil {
		t.Fatal(err)
	}
	csv := strings.Join(ExportHeader, ",") + "\n" +
		"2026-11-30T08:00:00Z,Attic,Humidity,55,import\n" +
		"2026-11-30T08:01:00Z,Attic,Humidity,56,import\n"
	res, err := s.Import(context.Background(), strings.NewReader(csv), ImportOptions{})
	if err != nil || res.Imported != 2 {
		t.Fatalf("import beside a foreign series: %d imported, %v", res.Imported, err)
	}
	if got := onDisk(t, other, "Attic", sensors.Humidity); got != 2 {
		t.Errorf("%d Attic humidity readings on disk, want 2", got)
	}
}

// TestBadRowDoesNotBlockOthers: readings the database refuses for their
// own sake (here a trigger, a real SQLite constraint failure) are dropped
// and logged with zone, measurement and time; the rest of the batch and
// every later batch are written.
func TestBadRowDoesNotBlockOthers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	var logs bytes.Buffer
	s := openTest(t, path, &Options{FlushInterval: time.Hour, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx := context.Background()
	now := time.Now().Truncate(time.Second)
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{reading("Good", sensors.Temperature, 20, now.Add(-time.Minute)), reading("Bad", sensors.Temperature, 20, now.Add(-time.Minute))}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	other := otherProcess(t, path)
	for _, q := range []string{
		// Every Bad reading, a new series' first reading at now, and the
		// creation of the series Refused fail; nothing else does.
		`CREATE TRIGGER refuse_bad BEFORE INSERT ON recent WHEN NEW.series = (SELECT id FROM series WHERE zone = 'Bad') BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
		fmt.Sprintf(`CREATE TRIGGER refuse_late BEFORE INSERT ON recent WHEN NEW.t = %d AND NEW.series = (SELECT id FROM series WHERE zone = 'Late') BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`, now.Unix()),
		`CREATE TRIGGER refuse_series BEFORE INSERT ON series WHEN NEW.zone = 'Refused' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
	} {
		if _, err := other.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	batch := []sensors.Reading{
		reading("Good", sensors.Temperature, 21, now),
		reading("Bad", sensors.Temperature, 21, now),
		reading("Late", sensors.Humidity, 50, now), // creates its series, then fails
		reading("Refused", sensors.Humidity, 50, now),
		reading("Late", sensors.Humidity, 51, now.Add(time.Second)),
		reading("Good", sensors.Temperature, 22, now.Add(time.Second)),
	}
	if err := s.Record(ctx, sensors.Batch{Readings: batch}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatalf("flush of a batch with refused readings: %v\n%s", err, logs.String())
	}
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{reading("Good", sensors.Temperature, 23, now.Add(2*time.Second))}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatalf("flush of the next batch: %v", err)
	}
	if err := s.Health(); err != nil {
		t.Errorf("Health: %v", err)
	}
	for _, c := range []struct {
		zone string
		m    sensors.Measurement
		want int
	}{{"Good", sensors.Temperature, 4}, {"Bad", sensors.Temperature, 1}, {"Late", sensors.Humidity, 1}, {"Refused", sensors.Humidity, 0}} {
		if got := onDisk(t, other, c.zone, c.m); got != c.want {
			t.Errorf("%d %s/%s readings on disk, want %d", got, c.zone, c.m, c.want)
		}
	}
	if got := s.Refused(); got != 3 {
		t.Errorf("Refused() = %d, want 3", got)
	}
	var orphans int
	if err := other.QueryRow("SELECT count(*) FROM recent WHERE series NOT IN (SELECT id FROM series)").Scan(&orphans); err != nil || orphans != 0 {
		t.Errorf("%d readings of no series (%v): a series rolled back with its row was used again", orphans, err)
	}
	log := logs.String()
	for _, want := range []string{"zone=Bad", "measurement=Temperature", "time=" + now.UTC().Format(time.RFC3339), "refused by the test"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log of the dropped readings lacks %q:\n%s", want, log)
		}
	}
}

// TestCompactionAdoptsForeignSeries: readings another process wrote into
// recent under a series the hub has not seen are moved on with the rest,
// and readings of no series at all are dropped with a log line rather than
// stopping every later compaction.
func TestCompactionAdoptsForeignSeries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	now := time.Unix(1_800_000_000, 0).Truncate(time.Hour).Add(30 * time.Minute)
	var logs bytes.Buffer
	s := openTest(t, path, &Options{FlushInterval: time.Hour, Now: testutil.FixedClock(now), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx := context.Background()
	old := now.Add(-2 * time.Hour)
	if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{reading("Indoor", sensors.Temperature, 21, old)}}); err != nil {
		t.Fatal(err)
	}
	other := otherProcess(t, path)
	for _, q := range []string{
		"INSERT INTO series (zone, measurement, source) VALUES ('Attic', 'Temperature', 'other')",
		fmt.Sprintf("INSERT INTO recent (t, series, v) SELECT %d, id, 15000 FROM series WHERE zone = 'Attic'", old.Unix()),
		fmt.Sprintf("INSERT INTO recent (t, series, v) VALUES (%d, 999, 1)", old.Unix()),
	} {
		if _, err := other.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	compactNow(t, s)
	for _, c := range []struct {
		zone, table string
		want        int
	}{{"Attic", "raw", 1}, {"Indoor", "raw", 1}, {"Attic", "rollup_1h", 1}} {
		var n int
		if err := other.QueryRow("SELECT count(*) FROM "+c.table+" r JOIN series s ON s.id = r.series WHERE s.zone = ?", c.zone).Scan(&n); err != nil || n != c.want {
			t.Errorf("%d %s rows of %s (%v), want %d", n, c.table, c.zone, err, c.want)
		}
	}
	var left int
	if err := other.QueryRow("SELECT count(*) FROM recent").Scan(&left); err != nil || left != 0 {
		t.Errorf("%d readings left in recent (%v), want 0", left, err)
	}
	if !strings.Contains(logs.String(), "dropping recent readings of no series") {
		t.Errorf("no log of the reading of no series:\n%s", logs.String())
	}
}
