package history

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// recordedThenFull records three hours of history into a database on a
// tmpfs of its own of size, closes it and fills the file system to the last
// byte, as an SD card that logs or another program filled up; it returns
// the database, the filler to remove, and the readings recorded.
func recordedThenFull(t *testing.T, size string) (path, filler string, past []sensors.Reading) {
	t.Helper()
	dir := smallFS(t, size)
	path, filler = filepath.Join(dir, "c.db"), filepath.Join(dir, "filler")
	ctx := context.Background()
	s, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Truncate(time.Minute)
	past = every("Indoor", sensors.Temperature, now.Add(-3*time.Hour), 180, time.Minute, func(i int) float64 { return 20 + float64(i%10)/10 })
	if err := s.Record(ctx, sensors.Batch{Readings: past}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	// Closed, the database keeps its WAL index, and an empty WAL.
	for name, want := range map[string]int64{path + "-wal": 0, path + "-shm": 32 << 10} {
		if fi, err := os.Stat(name); err != nil || fi.Size() != want {
			t.Errorf("after close: %s: %v, want %d bytes", name, err, want)
		}
	}
	fill(t, dir)
	if free, _, _ := DiskSpace(dir); free != 0 {
		t.Fatalf("%d bytes still free", free)
	}
	return path, filler, past
}

// openFull opens the database at path on its full disk, with retries
// 50 ms after a failure (doubling), and the log it writes.
func openFull(t *testing.T, path string) (*Store, *testutil.Buffer) {
	t.Helper()
	logs := &testutil.Buffer{}
	s, err := Open(context.Background(), path, &Options{FlushInterval: 50 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatalf("open on a full disk: %v", err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s, logs
}

// countRows is how many readings the file holds, in raw and recent.
func countRows(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.rdb.QueryRow("SELECT count(*) FROM " + rawView).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A hub restarted on a full SD card refused to start ("the file system
// … is full"), so an assistant asking how warm it is got nothing. Now it
// opens what it recorded, answers from it, keeps new readings in memory
// while the disk refuses them, says so once, and writes every one of
// them once space is freed.
func TestFullDiskOpensExistingDatabase(t *testing.T) {
	path, filler, past := recordedThenFull(t, "4m")
	ctx := context.Background()
	s, logs := openFull(t, path)
	if pid, _ := os.ReadFile(path + ".lock"); strings.TrimSpace(string(pid)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock file holds %q, want this process's PID", pid)
	}
	got, err := s.Range(ctx, Query{Zone: "Indoor", Measurement: sensors.Temperature, From: past[0].Time, To: past[len(past)-1].Time.Add(time.Second)})
	if err != nil {
		t.Fatalf("query on a full disk: %v", err)
	}
	if got.Summary.Count != len(past) {
		t.Errorf("query on a full disk counts %d readings, want %d", got.Summary.Count, len(past))
	}
	// More than the room the kept WAL has (see faultRun).
	const n = 40_000
	now := past[len(past)-1].Time.Add(time.Minute)
	fresh := every("Indoor", sensors.Humidity, now.Add(-n*time.Second), n, time.Second, func(i int) float64 { return 40 + float64(i%20) })
	if err := s.Record(ctx, sensors.Batch{Readings: fresh}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d readings not written", n)) {
		t.Fatalf("flush on a full disk: %v", err)
	}
	var full *FullError
	if err := s.Health(); !errors.As(err, &full) || !errors.Is(err, ErrWritesFailing) || !strings.Contains(err.Error(), fmt.Sprintf("%d readings waiting", n)) {
		t.Fatalf("health on a full disk: %v", err)
	}
	// Several paced retries (50, 100, 200, 400 ms …), one log line.
	time.Sleep(time.Second)
	if c := strings.Count(logs.String(), fullMsg); c != 1 {
		t.Errorf("the log says the disk is full %d times, want once:\n%s", c, logs.String())
	}
	os.Remove(filler)
	if err := s.Flush(ctx); err != nil {
		t.Fatalf("flush after freeing space: %v\n%s", err, logs.String())
	}
	if err := s.Health(); err != nil {
		t.Errorf("health after freeing space: %v", err)
	}
	if c := countRows(t, s); c != len(past)+n {
		t.Errorf("the file holds %d readings, want %d (%d recorded before, %d while full)", c, len(past)+n, len(past), n)
	}
}

// While the disk stays full the writer holds at most DefaultMaxPending
// readings (dropping the oldest once DefaultMaxPending/8 more arrived,
// with one log line), and writes those it holds once space is freed.
func TestFullDiskPendingBound(t *testing.T) {
	path, filler, past := recordedThenFull(t, "64m")
	ctx := context.Background()
	s, logs := openFull(t, path)
	const n = DefaultMaxPending + DefaultMaxPending/8 + 1
	now := past[len(past)-1].Time.Add(time.Minute)
	fresh := every("Indoor", sensors.Humidity, now.Add(-n*time.Second), n, time.Second, func(i int) float64 { return float64(10 + i%80) })
	if err := s.Record(ctx, sensors.Batch{Readings: fresh}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d readings not written", DefaultMaxPending)) {
		t.Fatalf("flush on a full disk: %v", err)
	}
	if err := s.Health(); !strings.Contains(err.Error(), fmt.Sprintf("%d readings waiting", DefaultMaxPending)) {
		t.Errorf("health on a full disk: %v", err)
	}
	if c := strings.Count(logs.String(), "dropping oldest readings"); c != 1 || !strings.Contains(logs.String(), fmt.Sprintf("dropped=%d", n-DefaultMaxPending)) {
		t.Errorf("%d logs of the drop, want one of %d:\n%s", c, n-DefaultMaxPending, logs.String())
	}
	os.Remove(filler)
	if err := s.Flush(ctx); err != nil {
		t.Fatalf("flush after freeing space: %v", err)
	}
	if c := countRows(t, s); c != len(past)+DefaultMaxPending {
		t.Errorf("the file holds %d readings, want %d", c, len(past)+DefaultMaxPending)
	}
	// The newest were kept: the oldest humidity on file is the first not dropped.
	var oldest int64
	if err := s.rdb.QueryRow("SELECT min(t) FROM "+rawView+" WHERE series = (SELECT id FROM series WHERE measurement = ?)", string(sensors.Humidity)).Scan(&oldest); err != nil {
		t.Fatal(err)
	}
	if want := fresh[n-DefaultMaxPending].Time.Unix(); oldest != want {
		t.Errorf("oldest humidity kept at %d, want %d (the newest %d kept)", oldest, want, DefaultMaxPending)
	}
}

// A disk that was full for a while put the writer's back-off at its
// longest (DefaultMaxRetryInterval), and both a Flush and the recovery
// waited for it: a soak saw /healthz 503 for 14 s after space came
// back, and the MQTT ingest, blocked in Flush, left its messages to the
// broker, which dropped them. Now a Flush on a full disk answers at once
// that the readings wait in memory (sensors.ErrDiskFull), and the first
// Flush or tick after space is freed writes them, whatever the back-off.
func TestFullDiskFlushAnswersAtOnceAndResumes(t *testing.T) {
	path, filler, past := recordedThenFull(t, "4m")
	ctx := context.Background()
	logs := &testutil.Buffer{}
	// Retries only every DefaultMaxRetryInterval: the tick and the
	// back-off cannot be what writes here within the test's deadlines.
	s, err := Open(ctx, path, &Options{FlushInterval: DefaultMaxRetryInterval, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	now := past[len(past)-1].Time.Add(time.Minute)
	for i := range 3 {
		fresh := every("Indoor", sensors.Humidity, now.Add(time.Duration(i)*time.Minute), 1, time.Second, func(int) float64 { return 50 })
		if err := s.Record(ctx, sensors.Batch{Readings: fresh}); err != nil {
			t.Fatal(err)
		}
		fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := s.Flush(fctx)
		cancel()
		if !errors.Is(err, sensors.ErrDiskFull) || !strings.Contains(err.Error(), fmt.Sprintf("%d readings not written", i+1)) {
			t.Fatalf("flush %d on a full disk: %v, want at once sensors.ErrDiskFull with %d readings waiting", i, err, i+1)
		}
	}
	os.Remove(filler)
	fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.Flush(fctx); err != nil {
		t.Fatalf("flush once space is back: %v\n%s", err, logs.String())
	}
	if err := s.Health(); err != nil {
		t.Errorf("health once space is back: %v", err)
	}
	if c := countRows(t, s); c != len(past)+3 {
		t.Errorf("the file holds %d readings, want %d", c, len(past)+3)
	}
}

// Without a Flush (sources that only record: I²C, the demo house), the
// tick finds the space freed: writing resumes within a few ticks, not at
// the back-off's next retry (here 2.35 s after space is freed).
func TestFullDiskTickResumes(t *testing.T) {
	path, filler, past := recordedThenFull(t, "4m")
	ctx := context.Background()
	s, logs := openFull(t, path) // ticks every 50 ms; retries after 50, 100, 200 … ms
	now := past[len(past)-1].Time.Add(time.Minute)
	if err := s.Record(ctx, sensors.Batch{Readings: every("Indoor", sensors.Humidity, now, 1, time.Second, func(int) float64 { return 50 })}); err != nil {
		t.Fatal(err)
	}
	// Retries at 0.05, 0.15, 0.35, 0.75, 1.55, 3.15 and 6.35 s.
	time.Sleep(4 * time.Second)
	if err := s.Health(); !errors.Is(err, sensors.ErrDiskFull) {
		t.Fatalf("health on a full disk: %v", err)
	}
	os.Remove(filler)
	freed := time.Now()
	for s.Health() != nil && time.Since(freed) < time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	if err := s.Health(); err != nil {
		t.Fatalf("health 1 s after space was freed: %v\n%s", err, logs.String())
	}
	if c := countRows(t, s); c != len(past)+1 {
		t.Errorf("the file holds %d readings, want %d", c, len(past)+1)
	}
}
