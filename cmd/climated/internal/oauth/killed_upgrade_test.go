package oauth_test

import (
	"context"
	"database/sql"
	"os"
	osexec "os/exec"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestUpgradeKilledMidwayResumes: climated serve killed (SIGKILL) at any
// moment while it converts a file of version 13 and brings every part up
// to date leaves a file the next start finishes: the tables of a new file,
// every step recorded once, the rows kept.
func TestUpgradeKilledMidwayResumes(t *testing.T) {
	if path := os.Getenv("CLIMATED_TEST_UPGRADE_CHILD"); path != "" {
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); { // bounded, should the parent die first
			if err := openEveryPart(context.Background(), path); err != nil {
				os.Exit(3)
			}
		}
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("starts processes")
	}
	freshPath, _ := testutil.LegacyHistory(t, "sqlite", 13)
	if err := openEveryPart(context.Background(), freshPath); err != nil {
		t.Fatal(err)
	}
	fdb, _ := sql.Open("sqlite", freshPath)
	defer fdb.Close()
	fresh := testutil.SchemaOf(t, fdb)
	for i := range 20 {
		path, db := testutil.LegacyHistory(t, "sqlite", 13)
		want := legacyRows(t, db, 13)
		db.Close()
		cmd := osexec.Command(os.Args[0], "-test.run=^TestUpgradeKilledMidwayResumes$")
		cmd.Env = append(os.Environ(), "CLIMATED_TEST_UPGRADE_CHILD="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+i*4) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		if err := openEveryPart(context.Background(), path); err != nil {
			t.Errorf("kill after %d ms: the next start: %v", 20+i*4, err)
			continue
		}
		db, _ = sql.Open("sqlite", path)
		if got := testutil.SchemaOf(t, db); got != fresh {
			t.Errorf("kill after %d ms: tables differ from a new file's:\n%s", 20+i*4, got)
		}
		for table, n := range want {
			var got int
			db.QueryRow("SELECT count(*) FROM " + table).Scan(&got)
			if got != n {
				t.Errorf("kill after %d ms: %s holds %d rows, want %d", 20+i*4, table, got, n)
			}
		}
		var steps int
		db.QueryRow("SELECT count(*) FROM schema_steps").Scan(&steps)
		if want := everyStep(t); steps != want {
			t.Errorf("kill after %d ms: %d steps, want %d", 20+i*4, steps, want)
		}
		db.Close()
	}
}
