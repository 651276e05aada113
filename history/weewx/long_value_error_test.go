package weewx

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongValueNamedShortly: text where a number belongs is named in the
// error of its record, but a value of a megabyte (a crafted or damaged
// archive) must not become a megabyte of error: the import lists the
// first 20 broken records on the terminal and the dry run prints them,
// so 20 such values would print 20 MB. The message quotes the start of
// the value, not all of it.
func TestLongValueNamedShortly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "weewx.sdb")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"CREATE TABLE archive (dateTime INTEGER NOT NULL UNIQUE PRIMARY KEY, usUnits INTEGER NOT NULL, interval INTEGER NOT NULL, outTemp REAL)",
		"INSERT INTO archive VALUES (1262304000, 1, 5, 'calm' || hex(zeroblob(500000)))",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	ctx := context.Background()
	a, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rows, err := a.Rows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	row, err := rows.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if row.Err == nil || !strings.Contains(row.Err.Error(), "outTemp") {
		t.Fatalf("record 1: %v, want outTemp named", row.Err)
	}
	if n := len(row.Err.Error()); n > 1000 {
		t.Errorf("the error naming one bad value is %d bytes: %.120s…", n, row.Err.Error())
	}
}
