package token

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadOrCreate: the first use creates a token only its owner can
// read, later uses read the same one, and a file others can read or one
// too short is refused with what to do.
func TestLoadOrCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "token")
	first, err := LoadOrCreate(path)
	if err != nil || len(first) < 16 {
		t.Fatalf("created %q, %v", first, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v, want mode 0600", fi, err)
	}
	if again, err := LoadOrCreate(path); err != nil || again != first {
		t.Errorf("read again: %q %v, want %q", again, err, first)
	}
	os.Chmod(path, 0o644)
	if _, err := LoadOrCreate(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a token others can read: %v", err)
	}
	os.WriteFile(path, []byte("short\n"), 0o600)
	os.Chmod(path, 0o600)
	if _, err := LoadOrCreate(path); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Errorf("a short token: %v", err)
	}
}
