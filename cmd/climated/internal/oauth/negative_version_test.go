package oauth_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/climated/climated/history"
)

// TestOddSchemaVersionRefused: a file whose user_version no climated
// wrote (negative: another program's file, or a damaged one) is refused
// by climated serve with an error, not a panic, and left as it was.
func TestOddSchemaVersionRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "climated.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec(t, db, "CREATE TABLE notes (body TEXT)", "PRAGMA user_version = -1")
	err = func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
				t.Errorf("climated serve on a file of user_version -1 panics: %v", p)
			}
		}()
		st, err := history.Open(context.Background(), path, nil)
		if err == nil {
			st.Close(context.Background())
		}
		return err
	}()
	if err == nil {
		t.Error("climated serve took a file of user_version -1")
	}
	var n int
	db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'schema_steps'").Scan(&n)
	if n != 0 {
		t.Error("the refused file was written")
	}
}
