package history

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one numbered schema step; its number is the user_version the
// database has once it ran.
type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number and an underscore", e.Name())
		}
		body, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{v, e.Name(), string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if want := i + 1; m.version != want && !(m.version > want && reserved(want, m.version)) {
			return nil, fmt.Errorf("migration %s: expected number %d", m.name, want)
		}
		if i > 0 && m.version == ms[i-1].version {
			return nil, fmt.Errorf("migration %s: number %d twice", m.name, m.version)
		}
	}
	return ms, nil
}

// reservedMigrations are numbers kept for a migration that is not here
// yet: a later one may skip them. A database that has run a later one
// never runs a reserved one, so a reserved number must be filled (or the
// later ones renumbered) before a release carries the later ones.
var reservedMigrations = map[int]bool{12: true}

// reserved reports whether every number from want up to (not including)
// next is reserved.
func reserved(want, next int) bool {
	for v := want; v < next; v++ {
		if !reservedMigrations[v] {
			return false
		}
	}
	return true
}

// latest is the schema version the newest migration leaves.
func latest(ms []migration) int {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// migrate brings db to the newest schema, one transaction per step, and
// refuses a database written by a newer climated.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	var current int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > latest(ms) {
		return fmt.Errorf("schema version %d is newer than this climated knows (%d): use a newer climated", current, latest(ms))
	}
	for _, m := range ms {
		if m.version <= current {
			continue
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: set version: %w", m.name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %s: commit: %w", m.name, err)
		}
	}
	return nil
}
