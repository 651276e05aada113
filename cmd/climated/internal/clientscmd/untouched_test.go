package clientscmd_test

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/clientscmd"
	"github.com/climated/climated/history"
)

// TestClientsLeaveAFileWithoutHistoryUntouched: climated clients on an
// empty file (made beforehand, as an installer or touch does) refuses it
// (no history yet) and leaves it as it was: the history that climated
// serve then makes there has the 2 KiB pages a new file gets, not the
// pages of a header climated clients wrote.
func TestClientsLeaveAFileWithoutHistoryUntouched(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "climated.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := clientscmd.Run(ctx, []string{"--db", path}, &out, &errOut); err == nil {
		t.Fatal("climated clients took a file without history")
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Errorf("the refused file is no longer empty: %d bytes (%v)", fi.Size(), err)
	}
	st, err := history.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close(ctx)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var size int
	db.QueryRow("PRAGMA page_size").Scan(&size)
	if size != 2048 {
		t.Errorf("the history made after climated clients has %d-byte pages, want 2048 as a new file's", size)
	}
}
