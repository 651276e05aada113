package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
)

// keptDays is how many daily summaries the database at db keeps, and
// the time zone they were kept in.
func keptDays(t *testing.T, db string) (int, string) {
	t.Helper()
	sdb, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	var n int
	var zone string
	if err := sdb.QueryRow("SELECT count(*) FROM day_summary").Scan(&n); err != nil {
		t.Fatal(err)
	}
	sdb.QueryRow("SELECT zone FROM day_summary_zone WHERE id = 1").Scan(&zone)
	return n, zone
}

// TestFailedWeewxImportKeepsKeptDays: an import that fails (here a
// record with an impossible value: "nothing imported") leaves the
// hub's database as it was, its kept daily summaries included, even
// when it runs in another time zone than the hub's (another --config,
// or a shell's TZ where the configuration has no timezone:). Opening the
// history for the import deletes every kept day first, as kept in
// another zone, before a single record is read.
func TestFailedWeewxImportKeepsKeptDays(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	utc := filepath.Join(dir, "hub.yaml")
	os.WriteFile(utc, []byte("timezone: UTC\n"), 0o600)
	la := filepath.Join(dir, "shell.yaml")
	os.WriteFile(la, []byte("timezone: America/Los_Angeles\n"), 0o600)
	good := filepath.Join(testutil.Root(t), "testdata", "weewx", "metricwx-wview.sdb")
	if _, errOut, code := runCLI(t, "import", "--config", utc, "--db", db, "--from", "weewx", good); code != 0 {
		t.Fatalf("first import: exit %d %s", code, errOut)
	}
	// The hub runs a while and keeps the imported days.
	s, err := history.Open(context.Background(), db, &history.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WaitFor(t, "the days kept", func() bool { n, _ := keptDays(t, db); return n > 100 })
	s.Close(context.Background())
	before, zone := keptDays(t, db)

	broken := weewxCopy(t, "us-extended.sdb", "UPDATE archive SET outTemp = 500 WHERE dateTime = 1267500600")
	_, errOut, code := runCLI(t, "import", "--config", la, "--db", db, "--from", "weewx", "--zone", "rain=", broken)
	if code == 0 {
		t.Fatalf("the broken archive imported: %s", errOut)
	}
	after, zoneAfter := keptDays(t, db)
	if after != before || zoneAfter != zone {
		t.Errorf("an import that imported nothing changed the kept daily summaries: %d days kept in %q before, %d kept in %q after", before, zone, after, zoneAfter)
	}
}
