package weewx

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the driver "sqlite"

	"github.com/climated/climated/sensors"
)

// Source is the source of the readings an archive brings.
const Source = "weewx"

// Options say where an archive's columns go.
type Options struct {
	// Zones names the zone of a part of the station (outdoor, console,
	// channel1 …) or of one column (extraTemp1, barometer …), the column's
	// before its part's; an empty zone leaves the column (or the part)
	// out. A part named nowhere is the zone "Station <part>".
	Zones map[string]string
}

// Mapping is where one column of an archive goes.
type Mapping struct {
	Column      string
	Zone        string // "" when left out
	Measurement sensors.Measurement
}

// Archive is a weewx archive opened for reading: one read transaction,
// so that what is counted is what is read even while weewx writes.
type Archive struct {
	path   string
	db     *sql.DB
	tx     *sql.Tx
	read   []mapped // the columns read, in the order of the query
	unread []string // columns of the archive the import has no measurement for
	count  int64
	first  int64 // the oldest record's dateTime
	last   int64 // the newest's
}

// mapped is a column read, with its zone.
type mapped struct {
	name string
	column
	zone string
}

// Open opens the weewx archive at path (read only) and maps its columns.
func Open(ctx context.Context, path string, o *Options) (*Archive, error) {
	if o == nil {
		o = &Options{}
	}
	if err := checkZones(o.Zones); err != nil {
		return nil, err
	}
	// A relative path would read as the URI's authority.
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	// SQLite would say only "unable to open database file".
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(5000)"}}.Encode()}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	a := &Archive{path: path, db: db}
	if err := a.open(ctx, o); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

func (a *Archive) open(ctx context.Context, o *Options) error {
	tx, err := a.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("%s: %w", a.path, err)
	}
	a.tx = tx
	names, err := a.columnNames(ctx)
	if err != nil {
		return err
	}
	for _, n := range names {
		switch c, ok := lookup(n); {
		case n == "dateTime" || n == "usUnits" || n == "interval":
		case ok:
			a.read = append(a.read, mapped{name: n, column: c, zone: zoneOf(o.Zones, n, c.part)})
		default:
			a.unread = append(a.unread, n)
		}
	}
	sort.Slice(a.read, func(i, j int) bool { return a.read[i].name < a.read[j].name })
	if err := a.oneColumnEach(); err != nil {
		return err
	}
	var first, last sql.NullInt64
	if err := a.tx.QueryRowContext(ctx, "SELECT count(*), min(dateTime), max(dateTime) FROM archive").Scan(&a.count, &first, &last); err != nil {
		return fmt.Errorf("%s: count the archive's records: %w", a.path, err)
	}
	a.first, a.last = first.Int64, last.Int64
	return nil
}

// oneColumnEach checks that no two columns go to one measurement of
// one zone, where the second would overwrite the first.
func (a *Archive) oneColumnEach() error {
	seen := map[[2]string]string{}
	for _, c := range a.read {
		if c.zone == "" {
			continue
		}
		k := [2]string{c.zone, string(c.m)}
		if other, ok := seen[k]; ok {
			return fmt.Errorf("%s and %s would both be the %s of zone %q: give one of them a zone of its own (--zone %s=ZONE)", other, c.name, c.m, c.zone, c.name)
		}
		seen[k] = c.name
	}
	return nil
}

// columnNames are the archive table's columns; an error says when the
// file is no weewx archive.
func (a *Archive) columnNames(ctx context.Context) ([]string, error) {
	rows, err := a.tx.QueryContext(ctx, "SELECT name FROM pragma_table_info('archive')")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.path, err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("%s: %w", a.path, err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", a.path, err)
	}
	for _, need := range []string{"dateTime", "usUnits"} {
		if !strings.Contains(","+strings.Join(names, ",")+",", ","+need+",") {
			return nil, fmt.Errorf("%s: no weewx archive: want a table archive with the columns dateTime and usUnits (weewx's weewx.sdb, archive_sqlite)", a.path)
		}
	}
	return names, nil
}

// zoneOf is the zone of column name of part: the column's, else the
// part's, else "Station <part>".
func zoneOf(zones map[string]string, name, part string) string {
	if z, ok := zones[name]; ok {
		return z
	}
	if z, ok := zones[part]; ok {
		return z
	}
	return DefaultName + " " + part
}

// Close ends the read and closes the file.
func (a *Archive) Close() error {
	var errs []error
	if a.tx != nil {
		errs = append(errs, a.tx.Rollback())
	}
	return errors.Join(append(errs, a.db.Close())...)
}

// Records is how many records the archive holds.
func (a *Archive) Records() int64 { return a.count }

// Span is the time of the archive's oldest record and of its newest
// (zero times when it has none).
func (a *Archive) Span() (first, last time.Time) {
	if a.count == 0 {
		return time.Time{}, time.Time{}
	}
	return time.Unix(a.first, 0), time.Unix(a.last, 0)
}

// Mappings are the archive's columns that the import reads, and where
// each goes.
func (a *Archive) Mappings() []Mapping {
	ms := make([]Mapping, len(a.read))
	for i, c := range a.read {
		ms[i] = Mapping{Column: c.name, Zone: c.zone, Measurement: c.m}
	}
	return ms
}

// Unread are the archive's columns that hold values and that the import
// does not read (no measurement of the hub's: derived values such as
// dewpoint, which the hub derives itself, or altimeter, ET …), with how
// many values each holds. It reads the whole archive once.
func (a *Archive) Unread(ctx context.Context) (map[string]int64, error) {
	out := map[string]int64{}
	if len(a.unread) == 0 {
		return out, nil
	}
	exprs := make([]string, len(a.unread))
	counts := make([]int64, len(a.unread))
	dest := make([]any, len(a.unread))
	for i, n := range a.unread {
		exprs[i] = "count(" + quote(n) + ")"
		dest[i] = &counts[i]
	}
	if err := a.tx.QueryRowContext(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM archive").Scan(dest...); err != nil {
		return nil, fmt.Errorf("%s: %w", a.path, err)
	}
	for i, n := range a.unread {
		if counts[i] > 0 {
			out[n] = counts[i]
		}
	}
	return out, nil
}

// quote is name as an SQL identifier.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
