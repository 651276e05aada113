package history

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors"
)

// committedCopy counts the readings that a process opening the files of path as
// they are now would find: what a crash of the writer leaves. The
// database and its WAL are copied, as a SIGKILL would leave them (the
// -shm is rebuilt from the WAL).
func committedCopy(t *testing.T, path string) int {
	t.Helper()
	dir := t.TempDir()
	for _, ext := range []string{"", "-wal"} {
		data, err := os.ReadFile(path + ext)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "copy.db"+ext), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "copy.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT (SELECT count(*) FROM raw) + (SELECT count(*) FROM recent)").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCommitIntervalBoundsTheLoss: with a commit interval of a minute
// (the hub's commit_interval), a reading recorded every 10 s waits in
// memory until the writer's next commit and no longer: a copy of the
// files taken at any moment (what a crash leaves) holds every reading
// recorded at least a minute before, and the readings of the last minute
// are what it can lose. Fails if readings are committed later than the
// interval, or (the interval not applied) at once.
func TestCommitIntervalBoundsTheLoss(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const interval = time.Minute
		path := filepath.Join(t.TempDir(), "h.db")
		s, err := Open(context.Background(), path, &Options{Location: time.UTC, FlushInterval: interval})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close(context.Background())
		start := time.Now()
		ctx := context.Background()
		var recorded []time.Time
		lostMost := 0
		for i := range 60 { // ten minutes
			r := sensors.Reading{Zone: "Hall", Measurement: sensors.Temperature, Value: 20 + float64(i%10)/10, Time: time.Now(), Source: "test"}
			if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
				t.Fatal(err)
			}
			recorded = append(recorded, r.Time)
			time.Sleep(10 * time.Second)
			synctest.Wait()
			got, now := committedCopy(t, path), time.Now()
			due := 0 // recorded a full interval ago: must be on disk
			for _, at := range recorded {
				if now.Sub(at) >= interval {
					due++
				}
			}
			if got < due {
				t.Fatalf("at %s: %d readings on disk, want at least the %d recorded %s or more ago", now.Sub(start), got, due, interval)
			}
			lostMost = max(lostMost, len(recorded)-got)
		}
		// Six readings a minute: a crash at the worst moment loses the six
		// of the last minute, not one more, and not none (the interval is
		// in force: readings do wait).
		if lostMost == 0 || lostMost > 6 {
			t.Fatalf("a crash would have lost up to %d readings, want 1 to 6 (one interval's)", lostMost)
		}
		t.Logf("a crash would have lost at most %d readings (%s)", lostMost, interval)
	})
}

// TestCommitIntervalCountsFromTheLatestCommit: a commit that a Flush asked
// for starts the interval again, so that a caller that flushes often (the
// MQTT ingest, every ten QoS 1 messages) does not get the ticks' commits
// on top of its own; a reading recorded after it still waits no longer
// than the interval. Fails if the tick runs on regardless (a second
// commit at 60 s).
func TestCommitIntervalCountsFromTheLatestCommit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const interval = time.Minute
		var commits atomic.Int32
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), &Options{Location: time.UTC, FlushInterval: interval,
			OnFlush: func(_ time.Duration, n int, err error) {
				if n > 0 && err == nil {
					commits.Add(1)
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close(context.Background())
		ctx := context.Background()
		record := func() {
			r := sensors.Reading{Zone: "Hall", Measurement: sensors.Temperature, Value: 20, Time: time.Now(), Source: "test"}
			if err := s.Record(ctx, sensors.Batch{Readings: []sensors.Reading{r}}); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(40 * time.Second)
		record()
		if err := s.Flush(ctx); err != nil { // at 40 s
			t.Fatal(err)
		}
		record()
		time.Sleep(30 * time.Second) // 70 s: past the first tick, not a minute after the flush
		synctest.Wait()
		if n := commits.Load(); n != 1 {
			t.Fatalf("%d commits at 70 s, want the flush's alone: the interval did not start again at the flush", n)
		}
		time.Sleep(31 * time.Second) // 101 s: a minute after the flush
		synctest.Wait()
		if n := commits.Load(); n != 2 {
			t.Fatalf("%d commits at 101 s, want 2: the reading recorded at 40 s waited longer than the interval", n)
		}
	})
}
