package oauth_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/internal/testutil"
)

// legacyRows fills every table that a file of version held: a series, a
// user alert rule and an event, an OAuth client with a grant (and its
// token pair from version 11), remote write's cursor and a running
// total. It returns what each table should hold after the upgrade.
func legacyRows(t *testing.T, db *sql.DB, version int) map[string]int {
	t.Helper()
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode = wal").Scan(&mode); err != nil || mode != "wal" { // as every climated left it
		t.Fatalf("journal mode %q: %v", mode, err)
	}
	want := map[string]int{"series": 1}
	exec(t, db, "INSERT INTO series (id, zone, measurement, source) VALUES (1, 'Cabin', 'Rain', 'station/gw2000a')")
	if version >= 4 {
		exec(t, db, `INSERT INTO alert_rules (spec, created) VALUES ('{"name":"kept"}', 1)`,
			"INSERT INTO alert_events (t, type, rule, kind, zone, measurement, value, unit, text) VALUES (1, 'fired', 'u1', 'above', 'Cabin', 'Rain', 1, 'mm', 'kept')")
		want["alert_rules"], want["alert_events"] = 1, 1
	}
	if version >= 6 {
		exec(t, db, "INSERT INTO oauth_clients VALUES ('dcr_kept', 'Kept', '[]', 1, 1)")
		if version < 11 {
			exec(t, db, "INSERT INTO oauth_grants VALUES ('f1', 'dcr_kept', 'r', 's', 1, 1, x'01', 2, x'02', 2)")
		} else {
			exec(t, db, "INSERT INTO oauth_grants VALUES ('f1', 'dcr_kept', 'r', 's', 1, 1)",
				"INSERT INTO oauth_tokens (refresh_hash, family, access_hash, created, first_used, refresh_expires, access_expires) VALUES (x'01', 'f1', x'02', 1, 0, 2, 2)")
		}
		want["oauth_clients"], want["oauth_grants"], want["oauth_tokens"] = 1, 1, 1
	}
	if version >= 13 {
		exec(t, db, "INSERT INTO remote_write VALUES ('http://store', 1, 1, 1, 5, 0)",
			"INSERT INTO remote_write_totals VALUES ('http://store', 1, 40)")
		want["remote_write"], want["remote_write_totals"] = 1, 1
	}
	return want
}

// everyStep is how many steps the parts openEveryPart opens have, all
// told: what schema_steps holds once each has taken all of its own.
func everyStep(t *testing.T) int {
	t.Helper()
	n := 0
	for _, s := range []history.Schema{history.OwnSchema, alerts.Schema, oauth.Schema, remotewrite.Schema} {
		files, err := fs.Glob(s.Steps, "*.sql")
		if err != nil {
			t.Fatal(err)
		}
		n += len(files)
	}
	return n
}

// openEveryPart opens the file as climated serve does: the history, then
// the alerts, the OAuth tables and remote write's part.
func openEveryPart(ctx context.Context, path string) error {
	st, err := history.Open(ctx, path, nil)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer st.Close(ctx)
	adb, err := alerts.OpenDB(ctx, path, nil)
	if err != nil {
		return err
	}
	adb.Close()
	reg, err := oauth.OpenRegistry(ctx, path, nil)
	if err != nil {
		return err
	}
	reg.Close()
	db, err := history.OpenSQLite("file:" + path + "?_busy_timeout=5000&_txlock=immediate")
	if err != nil {
		return err
	}
	defer db.Close()
	return history.Migrate(ctx, db, remotewrite.Schema)
}

// TestLegacyRowsKeptWhenPartsOpenAtOnce: a file of each version 1 to 13
// holding rows in every table it has, converted by climated serve while
// climated clients, climated alerts and a read-only user (mcp, export,
// doctor) open it over and over, ends with every part's steps taken once
// and every row kept; the others are told the file is not ready, or open
// it, and fail in no other way.
func TestLegacyRowsKeptWhenPartsOpenAtOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for version := 1; version <= 13; version++ {
		path, db := testutil.LegacyHistory(t, "sqlite", version)
		want := legacyRows(t, db, version)
		var wg sync.WaitGroup
		done := make(chan struct{})
		errs := make(chan error, 1000)
		others := []func() error{
			func() error {
				reg, err := oauth.OpenRegistry(ctx, path, nil)
				if err == nil {
					_, err = reg.Clients(ctx)
					reg.Close()
				}
				if errors.Is(err, oauth.ErrNoSchema) {
					return nil
				}
				return err
			},
			func() error {
				adb, err := alerts.OpenDB(ctx, path, &alerts.DBOptions{ReadOnly: true})
				if err == nil {
					adb.Close()
				}
				if errors.Is(err, alerts.ErrNoSchema) {
					return nil
				}
				return err
			},
			func() error {
				st, err := history.OpenReadOnly(ctx, path, nil)
				if err == nil {
					st.Close(ctx)
				}
				if errors.Is(err, history.ErrSchemaBehind) {
					return nil
				}
				return err
			},
		}
		for _, open := range others {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					if err := open(); err != nil {
						errs <- err
					}
					select {
					case <-done:
						return
					case <-ctx.Done():
						return
					default:
					}
				}
			}()
		}
		if err := openEveryPart(ctx, path); err != nil {
			t.Errorf("version %d: climated serve: %v", version, err)
		}
		close(done)
		wg.Wait()
		close(errs)
		seen := map[string]bool{}
		for err := range errs {
			if !seen[err.Error()] {
				seen[err.Error()] = true
				t.Errorf("version %d: beside serve: %v", version, err)
			}
		}
		if err := openEveryPart(ctx, path); err != nil {
			t.Fatalf("version %d, opened again: %v", version, err)
		}
		for table, n := range want {
			var got int
			if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != n {
				t.Errorf("version %d: %s holds %d rows, want %d", version, table, got, n)
			}
		}
		var steps int
		db.QueryRow("SELECT count(*) FROM schema_steps").Scan(&steps)
		if want := everyStep(t); steps != want {
			t.Errorf("version %d: %d steps kept, want %d", version, steps, want)
		}
		var uv int
		db.QueryRow("PRAGMA user_version").Scan(&uv)
		if uv != 14 {
			t.Errorf("version %d: user_version %d", version, uv)
		}
	}
}
