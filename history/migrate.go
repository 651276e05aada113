package history

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Schema is one package's part of the database: its tables, made by its
// own numbered steps (files NNN_name.sql in Steps, numbered from 1 with
// no gap). Every package that keeps tables in the history's file has
// one beside its code, and the one runner, Migrate, applies it; the
// steps each part has taken are kept in the table schema_steps, by
// Owner, so the parts move on independently.
type Schema struct {
	Owner string
	Steps fs.FS
}

//go:embed migrations/*.sql
var migrationFiles embed.FS

// OwnSchema is the history's own part: series, readings and their tiers,
// marks, source states and the kept days.
var OwnSchema = NewSchema("history", migrationFiles, "migrations")

// NewSchema is owner's part, its steps the files in dir of files (the
// package's embedded migrations directory).
func NewSchema(owner string, files fs.FS, dir string) Schema {
	steps, err := fs.Sub(files, dir)
	if err != nil {
		panic(fmt.Sprintf("%s migrations: %v", owner, err))
	}
	return Schema{Owner: owner, Steps: steps}
}

// ErrSchemaBehind says a part's steps have not all been taken: a
// read-only user found a database the hub (of this version) has not
// opened yet.
var ErrSchemaBehind = errors.New("the database has not been brought up to this climated's tables yet: run climated serve (of this version) on it first")

// ErrNoHistory says another part's Migrate found a file the history (of
// this climated) has not made or brought up to date: the history opens
// the file first (it also sets the page size when the file is created).
var ErrNoHistory = errors.New("the file holds no history of this climated: climated serve (of this version) must open it first")

// FileMade is ErrNoHistory when there is no file at path or it is empty:
// another part opens it only once the history made it, before its
// connection's settings (WAL) write to it (an empty file an installer made
// would get another page size than the history's).
func FileMade(path string) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == 0 {
		return ErrNoHistory
	}
	return nil
}

// stepsVersion is the user_version of a file whose steps are kept per part
// in schema_steps. Versions 1 to 13 numbered one list of steps for all
// the parts (legacySteps); an older climated's serve refuses a file at 14
// as written by a newer one.
const stepsVersion = 14

// legacySteps are, in order, the parts' steps that user_version 1 to 13
// stood for when the history's runner took every part's steps as one list.
var legacySteps = [stepsVersion - 1]struct {
	owner string
	step  int
}{
	{"history", 1}, {"history", 2}, {"history", 3}, {"alerts", 1}, {"history", 4},
	{"oauth", 1}, {"history", 5}, {"history", 6}, {"history", 7}, {"oauth", 2},
	{"oauth", 3}, {"history", 8}, {"remote_write", 1},
}

// step is one numbered schema step of a part.
type step struct {
	number int
	name   string
	sql    string
}

// steps reads s's steps in order, refusing a name without its number or
// a gap in the numbers.
func (s Schema) steps() ([]step, error) {
	entries, err := fs.ReadDir(s.Steps, ".")
	if err != nil {
		return nil, fmt.Errorf("%s migrations: %w", s.Owner, err)
	}
	var out []step
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("%s migration %s: name must be a number, an underscore and a name ending .sql", s.Owner, e.Name())
		}
		body, err := fs.ReadFile(s.Steps, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, step{n, e.Name(), string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].number < out[j].number })
	for i, st := range out {
		if st.number != i+1 {
			return nil, fmt.Errorf("%s migration %s: expected number %d", s.Owner, st.name, i+1)
		}
	}
	return out, nil
}

// Migrate brings s's tables in db up to date, one transaction per step,
// and refuses a file where s has taken a step this climated does not know
// (written by a newer one). A file from before the parts kept their own
// steps is converted first.
func Migrate(ctx context.Context, db *sql.DB, s Schema) error {
	steps, err := s.steps()
	if err != nil {
		return err
	}
	if s.Owner != OwnSchema.Owner {
		if err := historyMade(ctx, db); err != nil {
			return err
		}
	}
	if err := keepStepsPerPart(ctx, db); err != nil {
		return err
	}
	done, err := stepsTaken(ctx, db, s.Owner)
	if err != nil {
		return err
	}
	if done > len(steps) {
		return newerStep(s.Owner, done, len(steps))
	}
	for _, st := range steps[done:] {
		if err := takeStep(ctx, db, s.Owner, st); err != nil {
			return fmt.Errorf("%s migration %s: %w", s.Owner, st.name, err)
		}
	}
	return nil
}

// CheckSchema is Migrate for a read-only user: ErrSchemaBehind unless
// every step of s has been taken (and a file of a newer climated refused).
func CheckSchema(ctx context.Context, db *sql.DB, s Schema) error {
	steps, err := s.steps()
	if err != nil {
		return err
	}
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if err := checkVersion(version); err != nil {
		return err
	}
	if version < stepsVersion {
		return ErrSchemaBehind
	}
	done, err := stepsTaken(ctx, db, s.Owner)
	switch {
	case err != nil:
		return err
	case done > len(steps):
		return newerStep(s.Owner, done, len(steps))
	case done < len(steps):
		return ErrSchemaBehind
	}
	return nil
}

// historyMade is ErrNoHistory unless the history of this climated has
// taken all its steps in db: another part's steps may build on its
// tables (remote write's trigger on series), and climated serve opens the
// history first. A file of a newer climated (its numbering, or its
// history a step ahead) is refused as such.
func historyMade(ctx context.Context, db *sql.DB) error {
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if err := checkVersion(version); err != nil {
		return err
	}
	if version != stepsVersion {
		return ErrNoHistory
	}
	own, err := OwnSchema.steps()
	if err != nil {
		return err
	}
	n, err := stepsTaken(ctx, db, OwnSchema.Owner)
	switch {
	case err != nil:
		return err
	case n > len(own):
		return newerStep(OwnSchema.Owner, n, len(own))
	case n < len(own):
		return ErrNoHistory
	}
	return nil
}

// checkVersion refuses a user_version this climated cannot read: a newer
// one's, or one below 0 (another program's file, or a damaged one).
func checkVersion(version int) error {
	switch {
	case version > stepsVersion:
		return fmt.Errorf("schema version %d is newer than this climated knows (%d): use a newer climated", version, stepsVersion)
	case version < 0:
		return fmt.Errorf("schema version %d: not a history climated wrote", version)
	}
	return nil
}

func newerStep(owner string, n, known int) error {
	return fmt.Errorf("%s schema step %d is newer than this climated knows (%d): use a newer climated", owner, n, known)
}

// stepsTaken is how many of owner's steps db has taken.
func stepsTaken(ctx context.Context, db *sql.DB, owner string) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT coalesce(max(step), 0) FROM schema_steps WHERE owner = ?", owner).Scan(&n)
	return n, err
}

// takeStep runs st and records it in one transaction, unless another
// connection took it first.
func takeStep(ctx context.Context, db *sql.DB, owner string, st step) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var taken int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM schema_steps WHERE owner = ? AND step = ?", owner, st.number).Scan(&taken); err != nil {
		return err
	}
	if taken > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, st.sql); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_steps (owner, step, name) VALUES (?, ?, ?)", owner, st.number, st.name); err != nil {
		return err
	}
	return tx.Commit()
}

// keepStepsPerPart makes schema_steps, once: on a new file empty, on a
// file of user_version 1 to 13 holding the steps that version stood for.
// A file of a newer climated is refused.
func keepStepsPerPart(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if err := checkVersion(version); err != nil {
		return err
	}
	if version == stepsVersion {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE schema_steps (
		owner TEXT    NOT NULL, -- the package the tables belong to
		step  INTEGER NOT NULL, -- its step, from 1
		name  TEXT    NOT NULL, -- the step's file
		PRIMARY KEY (owner, step)
	) WITHOUT ROWID`); err != nil {
		return err
	}
	for _, l := range legacySteps[:version] {
		if _, err := tx.ExecContext(ctx, "INSERT INTO schema_steps (owner, step, name) VALUES (?, ?, 'before steps were kept per part')", l.owner, l.step); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", stepsVersion)); err != nil {
		return err
	}
	return tx.Commit()
}
