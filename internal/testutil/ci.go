package testutil

import (
	"os"
	"syscall"
	"testing"
)

// RequireInCI fails the test under CI (CI=true, as scripts/test.sh sets),
// where what it needs must be there, and skips it elsewhere, saying how to
// get what is missing: a fresh checkout's go test ./... passes.
func RequireInCI(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format+" (required when CI=true)", args...)
}

// MountSmall mounts a tmpfs of size on a fresh directory (root, as in CI)
// and unmounts it at the end of the test.
func MountSmall(t testing.TB, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		RequireInCI(t, "mount a small tmpfs (needs root): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}
