package testutil

import (
	"os"
	"syscall"
	"testing"
)

// TakeSpace makes name hold n bytes of the file system (tmpfs allocates
// them at once).
func TakeSpace(t testing.TB, name string, n int64) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(0); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Fallocate(int(f.Fd()), 0, 0, n); err != nil {
		t.Fatal(err)
	}
}
