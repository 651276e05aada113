package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/doctor"
	"github.com/climated/climated/history"
)

// TestDoctorStationOnAwkwardDatabases (found by an adversarial pass): doctor's
// station check opens the history read-only: on no database it must not
// create one, on a file that is not a database or one another process
// holds locked exclusively it says so within bounded time instead of
// failing or hanging.
func TestDoctorStationOnAwkwardDatabases(t *testing.T) {
	cfg := stationHub(t)
	run := func() (string, time.Duration) {
		var b bytes.Buffer
		t0 := time.Now()
		doctor.Run(context.Background(), cfg, doctor.Env{Run: func(context.Context, string, ...string) (string, error) { return "", nil }}, false, &b)
		return b.String(), time.Since(t0)
	}
	stationLine := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, " station ") && strings.Contains(l, "upload") {
				return l
			}
		}
		return ""
	}

	out, _ := run()
	if l := stationLine(out); !strings.Contains(l, "WARN") {
		t.Errorf("no database: station line %q in\n%s", l, out)
	}
	if _, err := os.Stat(cfg.Database); !os.IsNotExist(err) {
		t.Errorf("doctor created the database it only reads: %v", err)
	}

	if err := os.MkdirAll(filepath.Dir(cfg.Database), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg.Database, bytes.Repeat([]byte("not sqlite "), 100), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ = run()
	if l := stationLine(out); !strings.Contains(l, "WARN") {
		t.Errorf("a file that is no database: station line %q in\n%s", l, out)
	}
	os.Remove(cfg.Database)

	if testing.Short() {
		return // the locked database costs the busy timeout, twice
	}
	st, err := history.Open(context.Background(), cfg.Database, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close(context.Background())
	lock, err := sql.Open("sqlite", cfg.Database)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	lock.SetMaxOpenConns(1)
	for _, q := range []string{"PRAGMA locking_mode=EXCLUSIVE", "BEGIN EXCLUSIVE", "CREATE TABLE adv_lock (x)"} {
		if _, err := lock.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	out, took := run()
	if took > 30*time.Second {
		t.Errorf("doctor took %s on a locked database", took)
	}
	if l := stationLine(out); !strings.Contains(l, "WARN") {
		t.Errorf("a locked database: station line %q in\n%s", l, out)
	}
	t.Logf("locked: %s\n%s", took, stationLine(out))
}
