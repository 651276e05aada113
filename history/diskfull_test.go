package history

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// smallFS mounts a tmpfs of size bytes on a fresh directory (root only,
// as on the CI machine) and unmounts it at the end of the test.
func smallFS(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fill writes into dir until its file system has no byte left.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int{64 << 10, 1} {
		buf := make([]byte, size)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
}

// A brand-new database on a full file system cannot be created, and
// there is nothing to serve: Open says the file system is full, how full,
// and what to do, rather than SQLite's "disk I/O error". (An existing one
// opens: TestFullDiskOpensExistingDatabase.)
func TestOpenOnFullDiskSaysSo(t *testing.T) {
	dir := smallFS(t, "4m")
	path := filepath.Join(dir, "c.db")
	ctx := context.Background()
	fill(t, dir)
	s, err := Open(ctx, path, nil)
	if err == nil {
		s.Close(ctx)
		t.Fatal("Open on a full file system succeeded; the test cannot see the error")
	}
	var full *FullError
	if !errors.As(err, &full) {
		t.Fatalf("error %q is not a FullError", err)
	}
	msg := err.Error()
	for _, want := range []string{path, "is full", "free of 4.0 MiB", "--db"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	// Space freed, the database is created.
	os.Remove(filepath.Join(dir, "filler"))
	s, err = Open(ctx, path, nil)
	if err != nil {
		t.Fatalf("after freeing space: %v", err)
	}
	s.Close(ctx)
	// Without the -shm a stopped hub leaves (deleted, or closed by an
	// older climated), SQLite must create it, and cannot.
	os.Remove(path + "-shm")
	os.Remove(path + "-wal")
	fill(t, dir)
	if s, err = Open(ctx, path, nil); !errors.As(err, &full) {
		t.Fatalf("open without its -shm on a full disk: %v, want a FullError", err)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[uint64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 4 << 20: "4.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// While the disk is full the hub's health says so (what /healthz and the
// watchdog show), the readings wait, and they are written once space is
// freed.
func TestHealthOnFullDiskSaysSo(t *testing.T) {
	dir := smallFS(t, "4m")
	path := filepath.Join(dir, "c.db")
	ctx := context.Background()
	s, err := Open(ctx, path, &Options{FlushInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	fill(t, dir)
	// SQLite may first fill pages it already has (the WAL's, free ones):
	// record day after day of readings until a write fails.
	rs := demoReadings(3000)
	for day := 0; ; day++ {
		batch := make([]sensors.Reading, len(rs))
		for i, r := range rs {
			r.Time = r.Time.AddDate(0, 0, day)
			batch[i] = r
		}
		if err := s.Record(ctx, sensors.Batch{Readings: batch}); err != nil {
			t.Fatal(err)
		}
		fctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		s.Flush(fctx)
		cancel()
		if err = s.Health(); err != nil || day == 100 {
			break
		}
	}
	var full *FullError
	if !errors.As(err, &full) || !errors.Is(err, ErrWritesFailing) {
		t.Fatalf("health %v: want a FullError wrapping ErrWritesFailing", err)
	}
	os.Remove(filepath.Join(dir, "filler"))
	if err := s.Flush(ctx); err != nil {
		t.Fatalf("flush after freeing space: %v", err)
	}
	if err := s.Health(); err != nil {
		t.Fatalf("health after freeing space: %v", err)
	}
}
