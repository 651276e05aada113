package alerts_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
)

// `climated alerts` on a stopped hub's database closes the last
// connection: it must leave the -shm that a restart on a full disk needs
// (history.OpenSQLite), as the hub does. Before, it deleted it.
func TestAlertsKeepTheWALIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "climate.db")
	st, err := history.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true} {
		db, err := alerts.OpenDB(ctx, path, &alerts.DBOptions{ReadOnly: ro})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path + "-shm"); err != nil {
			t.Fatalf("after the alerts (read-only %v) closed: %v", ro, err)
		}
	}
}
