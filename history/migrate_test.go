package history

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/climated/climated/internal/testutil"
)

// parts are the other packages' parts of the file, read from their
// directories (this package cannot import them).
func parts(t *testing.T) []Schema {
	root := testutil.Root(t)
	return []Schema{
		NewSchema("alerts", os.DirFS(filepath.Join(root, "history", "alerts")), "migrations"),
		NewSchema("oauth", os.DirFS(filepath.Join(root, "cmd", "climated", "internal", "oauth")), "migrations"),
		NewSchema("remote_write", os.DirFS(filepath.Join(root, "cmd", "climated", "internal", "remotewrite")), "migrations"),
	}
}

// openAll opens the history at path and brings every other part up to
// date, as climated serve does.
func openAll(t *testing.T, path string) *Store {
	t.Helper()
	s := openTest(t, path, nil)
	for _, p := range parts(t) {
		if err := Migrate(context.Background(), s.wdb, p); err != nil {
			t.Fatalf("%s: %v", p.Owner, err)
		}
	}
	return s
}

// allSteps is stepsOf a file where every one of schemas took its steps.
func allSteps(t *testing.T, schemas ...Schema) string {
	t.Helper()
	var all []string
	for _, sc := range schemas {
		steps, err := sc.steps()
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			all = append(all, fmt.Sprintf("%s %d", sc.Owner, st.number))
		}
	}
	slices.SortFunc(all, func(a, b string) int {
		ao, an, _ := strings.Cut(a, " ")
		bo, bn, _ := strings.Cut(b, " ")
		x, _ := strconv.Atoi(an)
		y, _ := strconv.Atoi(bn)
		return cmp.Or(strings.Compare(ao, bo), x-y)
	})
	return strings.Join(all, ", ")
}

func stepsOf(t *testing.T, db *sql.DB) string {
	t.Helper()
	var s string
	if err := db.QueryRow("SELECT group_concat(owner || ' ' || step, ', ') FROM (SELECT * FROM schema_steps ORDER BY owner, step)").Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLegacyFilesKeepTheirSteps: a file that any earlier climated left,
// at each of the schema versions 1 to 13, ends with the tables a new
// file gets, every part's steps counted once, and its readings kept.
func TestLegacyFilesKeepTheirSteps(t *testing.T) {
	fresh := testutil.SchemaOf(t, openAll(t, filepath.Join(t.TempDir(), "new.db")).rdb)
	if !strings.Contains(fresh, "table alert_rules") || !strings.Contains(fresh, "table oauth_tokens") || !strings.Contains(fresh, "table remote_write") {
		t.Fatalf("a new file lacks a part's tables:\n%s", fresh)
	}
	want := allSteps(t, append(parts(t), OwnSchema)...)
	for version := 1; version <= len(legacySteps); version++ {
		path, db := testutil.LegacyHistory(t, "sqlite", version)
		if _, err := db.Exec("INSERT INTO series (id, zone, measurement, source) VALUES (1, 'Indoor', 'Temperature', 'legacy')"); err != nil {
			t.Fatal(err)
		}
		db.Close()
		s := openAll(t, path)
		if got := testutil.SchemaOf(t, s.rdb); got != fresh {
			t.Errorf("version %d upgraded to other tables than a new file's:\n%s\nwant\n%s", version, got, fresh)
		}
		if steps := stepsOf(t, s.rdb); steps != want {
			t.Errorf("version %d: steps taken %q, want %q", version, steps, want)
		}
		var n int
		s.rdb.QueryRow("SELECT count(*) FROM series WHERE source = 'legacy'").Scan(&n)
		if n != 1 {
			t.Errorf("version %d: the series it held is gone", version)
		}
	}
}

// TestPartsMoveOnAlone: the history opened alone takes only its own
// steps; another part's come when that part opens, and a read-only user
// is told the part is behind until then.
func TestPartsMoveOnAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, nil)
	if steps := stepsOf(t, s.rdb); steps != allSteps(t, OwnSchema) {
		t.Errorf("the history alone took %q", steps)
	}
	alerts := parts(t)[0]
	if err := CheckSchema(context.Background(), s.rdb, alerts); !errors.Is(err, ErrSchemaBehind) {
		t.Errorf("CheckSchema before the alerts opened: %v, want ErrSchemaBehind", err)
	}
	if err := Migrate(context.Background(), s.wdb, alerts); err != nil {
		t.Fatal(err)
	}
	if err := CheckSchema(context.Background(), s.rdb, alerts); err != nil {
		t.Errorf("CheckSchema after: %v", err)
	}
	if err := Migrate(context.Background(), s.wdb, alerts); err != nil {
		t.Errorf("a second Migrate: %v", err)
	}
}

// TestPartNeedsTheHistory: another part refuses a file the history has
// not made, and leaves it as it was.
func TestPartNeedsTheHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	db, err := OpenSQLite("file:" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := Migrate(context.Background(), db, parts(t)[1]); !errors.Is(err, ErrNoHistory) {
		t.Errorf("oauth on an empty file: %v, want ErrNoHistory", err)
	}
	var n int
	db.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&n)
	if n != 0 {
		t.Errorf("the refused part left %d tables", n)
	}
}

// TestNewerFilesRefused: a file where a part took a step this climated
// does not know, or of a newer numbering, is refused with what to do,
// by the writer and by a read-only user.
func TestNewerFilesRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, nil)
	own, _ := OwnSchema.steps()
	next := len(own) + 1
	if _, err := s.wdb.Exec("INSERT INTO schema_steps VALUES ('history', ?, 'from_the_future.sql')", next); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"Migrate":     Migrate(context.Background(), s.wdb, OwnSchema),
		"CheckSchema": CheckSchema(context.Background(), s.rdb, OwnSchema),
	} {
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("history schema step %d is newer than this climated knows (%d): use a newer climated", next, next-1)) {
			t.Errorf("%s on a file with a newer step: %v", name, err)
		}
	}
	if _, err := s.wdb.Exec("PRAGMA user_version = 15"); err != nil {
		t.Fatal(err)
	}
	if err := Migrate(context.Background(), s.wdb, OwnSchema); err == nil || !strings.Contains(err.Error(), "schema version 15 is newer than this climated knows (14)") {
		t.Errorf("Migrate on a file of a newer numbering: %v", err)
	}
}

// TestStepsNumbered: a part whose files skip a number or lack one is
// refused, naming the file.
func TestStepsNumbered(t *testing.T) {
	for want, files := range map[string]fstest.MapFS{
		"test migration 003_third.sql: expected number 2": {"001_first.sql": {}, "003_third.sql": {}},
		"test migration notes.sql: name must be":          {"001_first.sql": {}, "notes.sql": {}},
		"test migration 002_second.txt: name must be":     {"001_first.sql": {}, "002_second.txt": {}},
	} {
		_, err := Schema{Owner: "test", Steps: files}.steps()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}
