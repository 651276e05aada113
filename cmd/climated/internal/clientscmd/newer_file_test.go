package clientscmd_test

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/clientscmd"
	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/history"
)

// clientsRefuseNewer: climated clients refuses the file that newer makes
// a newer climated's, as climated serve does, saying to use a newer
// climated, and revokes nothing in it.
func clientsRefuseNewer(t *testing.T, newer string) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "climated.db")
	upgrade(t, path) // the history and its OAuth tables, as serve leaves them
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec(t, db, "INSERT INTO oauth_clients VALUES ('dcr_kitchen', 'Kitchen', '[]', 1, 1)", newer)
	if _, err := history.Open(ctx, path, nil); err == nil || !strings.Contains(err.Error(), "use a newer climated") {
		t.Fatalf("climated serve on the newer file: %v", err)
	}
	var out, errOut bytes.Buffer
	err = clientscmd.Run(ctx, []string{"--db", path, "revoke", "dcr_kitchen"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "use a newer climated") {
		t.Errorf("climated clients revoke on the newer file: %v (%q), want it refused as written by a newer climated", err, strings.TrimSpace(out.String()))
	}
	var n int
	db.QueryRow("SELECT count(*) FROM oauth_clients WHERE id = 'dcr_kitchen'").Scan(&n)
	if n != 1 {
		t.Errorf("the newer file's client was revoked")
	}
}

// TestClientsRefuseAFileWhoseHistoryIsAhead: a file where the history
// took a step this climated does not know is a newer climated's: climated
// clients, which opens the OAuth part alone, refuses it as serve does.
func TestClientsRefuseAFileWhoseHistoryIsAhead(t *testing.T) {
	clientsRefuseNewer(t, "INSERT INTO schema_steps (owner, step, name) SELECT 'history', max(step) + 1, 'from_the_future.sql' FROM schema_steps WHERE owner = 'history'")
}

// TestClientsSayAFileOfANewerNumberingIsNewer: a file of user_version 15
// is a newer climated's; climated clients says to use a newer climated,
// not that the file has no OAuth tables and serve must open it first
// (serve refuses it).
func TestClientsSayAFileOfANewerNumberingIsNewer(t *testing.T) {
	clientsRefuseNewer(t, "PRAGMA user_version = 15")
}

// upgrade opens the history at path, then its OAuth tables, as climated
// serve does: each brings its part up to date.
func upgrade(t *testing.T, path string) {
	t.Helper()
	st, err := history.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close(context.Background())
	reg, err := oauth.OpenRegistry(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	reg.Close()
}

func exec(t *testing.T, db *sql.DB, queries ...string) {
	t.Helper()
	for _, q := range queries {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
