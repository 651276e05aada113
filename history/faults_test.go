package history

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// tmpfs mounts a small file system of its own for a fault test (the tests
// run as root, as CI does) and unmounts it at the end.
func tmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a tmpfs for the fault test (needs root, as CI has): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// faultRun records a batch, lets fault break writing, checks that the hub
// still answers from memory and keeps the readings, then lifts the fault
// and checks that every reading reaches the disk.
func faultRun(t *testing.T, path string, opts *Options, fault, lift func()) {
	t.Helper()
	var logs bytes.Buffer
	opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	// Short, so that the paced retries (from FlushInterval, doubling) come
	// soon after the fault lifts; Flush waits for the next one.
	opts.FlushInterval = 100 * time.Millisecond
	s := openTest(t, path, opts)
	ctx := context.Background()
	now := time.Now().Truncate(time.Minute)
	first := every("Indoor", sensors.Temperature, now.Add(-24*time.Hour), 60, time.Minute, func(int) float64 { return 20 })
	if err := s.Record(ctx, sensors.Batch{Readings: first}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	fault()
	// More than the WAL file's room: SQLite reuses the space its WAL
	// already has, so a few readings would still fit on a full disk.
	const n = 40_000
	second := every("Indoor", sensors.Temperature, now.Add(-n*time.Second), n, time.Second, func(i int) float64 { return 20 + float64(i%60)/10 })
	if err := s.Record(ctx, sensors.Batch{Readings: second}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d readings not written", n)) {
		t.Fatalf("flush during the fault: %v", err)
	}
	if err := s.Health(); !errors.Is(err, ErrWritesFailing) || !strings.Contains(err.Error(), "writes failing since") || !strings.Contains(err.Error(), fmt.Sprintf("%d readings waiting", n)) {
		t.Errorf("Health during the fault: %v", err)
	}
	if !strings.Contains(logs.String(), "write history; will retry") && !strings.Contains(logs.String(), fullMsg) {
		t.Errorf("no log of the failure:\n%s", logs.String())
	}
	lift()
	if err := s.Flush(ctx); err != nil {
		t.Fatalf("flush after the fault: %v\n%s", err, logs.String())
	}
	if err := s.Health(); err != nil {
		t.Errorf("Health after the fault: %v", err)
	}
	if !strings.Contains(logs.String(), "writing history again") {
		t.Errorf("no log of the recovery:\n%s", logs.String())
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if got := rawCount(t, path); got != 60+n {
		t.Errorf("%d readings on disk after the fault, want %d", got, 60+n)
	}
}

func TestFaultDiskFull(t *testing.T) {
	dir := tmpfs(t, "2m")
	filler := filepath.Join(dir, "filler")
	faultRun(t, filepath.Join(dir, "h.db"), &Options{},
		func() { fillDisk(t, filler) },
		func() { os.Remove(filler) })
}

// TestReadOnlyFileSystemAtOpen: a database on a file system mounted
// read-only is refused with an error that says so. (A file system that
// turns read-only under an open database cannot be staged here: the kernel
// refuses the remount while the file is open for writing; the writer meets
// it as it meets a full disk, which TestFaultDiskFull covers.)
func TestReadOnlyFileSystemAtOpen(t *testing.T) {
	dir := tmpfs(t, "4m")
	path := filepath.Join(dir, "h.db")
	s, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close(context.Background())
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount ro: %v %s", err, out)
	}
	_, err = Open(context.Background(), path, nil)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("open on a read-only file system: %v", err)
	}
}

func TestFaultLockedByAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	var other *sql.DB
	var tx *sql.Tx
	faultRun(t, path, &Options{BusyTimeout: 50 * time.Millisecond},
		func() {
			var err error
			if other, err = sql.Open("sqlite", path); err != nil {
				t.Fatal(err)
			}
			other.SetMaxOpenConns(1)
			if tx, err = other.Begin(); err != nil {
				t.Fatal(err)
			}
			// A write takes the lock and holds it until the transaction ends.
			if _, err := tx.Exec("UPDATE series SET source = source"); err != nil {
				t.Fatal(err)
			}
		},
		func() {
			tx.Rollback()
			other.Close()
		})
}
