package testutil

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// legacySteps are the schema steps, as files of the repository, that a
// history file of user_version 1 to 13 had taken, in the order climated
// took them when every package's steps were numbered in one list.
var legacySteps = []string{
	"history/migrations/001_init.sql",
	"history/migrations/002_integer_values_and_rollups.sql",
	"history/migrations/003_recent.sql",
	"history/alerts/migrations/001_alerts.sql",
	"history/migrations/004_marks.sql",
	"cmd/climated/internal/oauth/migrations/001_oauth.sql",
	"history/migrations/005_source_state.sql",
	"history/migrations/006_direction_vectors.sql",
	"history/migrations/007_daily_rollups.sql",
	"cmd/climated/internal/oauth/migrations/002_used_codes.sql",
	"cmd/climated/internal/oauth/migrations/003_tokens.sql",
	"history/migrations/008_day_summaries.sql",
	"cmd/climated/internal/remotewrite/migrations/001_cursor.sql",
}

// LegacyHistory makes a history file as the climated of schema version
// (1 to 13) left it: its steps run in their old order, user_version set.
// It returns the file's path and a connection to it, closed at the end
// of the test.
func LegacyHistory(t testing.TB, driver string, version int) (string, *sql.DB) {
	t.Helper()
	if version < 1 || version > len(legacySteps) {
		t.Fatalf("LegacyHistory: version %d, want 1 to %d", version, len(legacySteps))
	}
	path := filepath.Join(t.TempDir(), "climate.db")
	db, err := sql.Open(driver, "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	root := Root(t)
	for _, f := range legacySteps[:version] {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(b)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		t.Fatal(err)
	}
	return path, db
}

// SchemaOf is every table, index and trigger of db but schema_steps (the
// record of the steps taken), one a line: two files with the same
// SchemaOf were made alike.
func SchemaOf(t testing.TB, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master WHERE name != 'schema_steps' ORDER BY type, name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		b.WriteString(s + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
