package history

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Whatever closes a stopped hub's database last (`climated mcp`, export,
// backup) leaves the -shm that a restart on a full disk needs.
func TestReadersKeepTheWALIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "climate.db")
	st, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(ctx); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ro.Backup(ctx, filepath.Join(t.TempDir(), "copy.db")); err != nil {
		t.Fatal(err)
	}
	if err := ro.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-shm"); err != nil {
		t.Fatalf("after a read-only open and a backup: %v", err)
	}
}
