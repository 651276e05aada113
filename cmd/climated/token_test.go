package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTokenCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "state", "climated.db")
	var out1, out2 bytes.Buffer
	if err := run(t.Context(), []string{"token", "--db", db}, &out1, os.Stderr); err != nil {
		t.Fatal(err)
	}
	if err := run(t.Context(), []string{"token", "--db", db}, &out2, os.Stderr); err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(out1.String())
	if len(token) < 20 || out1.String() != out2.String() {
		t.Errorf("tokens %q and %q: want one stable token of at least 20 characters", out1.String(), out2.String())
	}
	fi, err := os.Stat(filepath.Join(filepath.Dir(db), "token"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("token file: %v, mode %v; want 0600", err, fi.Mode())
	}
}
