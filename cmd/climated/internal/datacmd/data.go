package datacmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/progress"
	"github.com/climated/climated/cmd/climated/internal/stampguard"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
)

// Backup is `climated backup FILE`: a consistent copy of the database,
// taken beside a running hub.
func Backup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := cli.NewDataFlags("backup", stdout, stderr)
	cfg, err := d.Config(args, stderr)
	if err != nil {
		return err
	}
	if d.FS.NArg() != 1 {
		fmt.Fprint(stderr, cli.UsageLine("backup"))
		return cli.ErrUsage
	}
	store, err := history.OpenReadOnly(ctx, cfg.Database, nil)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	t0 := time.Now()
	stopWatch := progress.WatchBackup(stderr, cfg.Database, d.FS.Arg(0))
	err = store.Backup(ctx, d.FS.Arg(0))
	stopWatch()
	if err != nil {
		return err
	}
	fi, err := os.Stat(d.FS.Arg(0))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s: %d bytes in %s\n", cfg.Database, d.FS.Arg(0), fi.Size(), time.Since(t0).Round(time.Millisecond))
	return nil
}

// Export is `climated export`: raw readings as CSV or JSON on stdout.
func Export(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := cli.NewDataFlags("export", stdout, stderr)
	zone := d.FS.String("zone", "", "only this `ZONE`")
	measurement := d.FS.String("measurement", "", "only this `MEASUREMENT` (Temperature, Rain …)")
	from := d.FS.String("from", "", "from this `TIME` (24h, 7d, 2026-11-01, RFC 3339)")
	to := d.FS.String("to", "", "until this `TIME` (exclusive)")
	format := d.FS.String("format", "csv", "csv or json")
	cfg, err := d.Config(args, stderr)
	if err != nil {
		return err
	}
	if d.FS.NArg() > 0 {
		fmt.Fprintf(stderr, "climated export: unexpected argument %q (it writes to stdout)\n", d.FS.Arg(0))
		return cli.ErrUsage
	}
	loc, _ := cfg.Location()
	e := history.Export{Zone: *zone, Measurement: sensors.Measurement(*measurement), Format: *format}
	bar := progress.New(stderr, "exported", readings)
	// Rows on the same terminal would tear a bar apart.
	if progress.IsTerminal(stdout) {
		bar.Plain()
	}
	e.Progress = func(n int64) { bar.Update(n, -1) }
	now := time.Now()
	if *from != "" {
		if e.From, err = timeFlag("from", *from, now, loc); err != nil {
			return err
		}
	}
	if *to != "" {
		if e.To, err = timeFlag("to", *to, now, loc); err != nil {
			return err
		}
	}
	if e.Measurement != "" {
		if _, ok := sensors.Lookup(e.Measurement); !ok {
			return fmt.Errorf("--measurement %q: not a measurement (%v)", *measurement, sensors.Measurements())
		}
	}
	store, err := hub.OpenReadOnly(ctx, cfg.Database, &history.Options{Location: loc}, time.Hour)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	// The same rule as MCP's tools: a zone that is not there is an error
	// that names the ones that are, not an empty export.
	if e.Zone != "" && !slices.Contains(store.Zones(), e.Zone) {
		if len(store.Zones()) == 0 {
			return fmt.Errorf("--zone: unknown zone %q; %s has no readings yet", e.Zone, cfg.Database)
		}
		return fmt.Errorf("--zone: unknown zone %q; the zones are %s", e.Zone, strings.Join(store.Zones(), ", "))
	}
	n, err := store.Export(ctx, stdout, e)
	bar.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "exported %s\n", config.Plural(int(n), "reading"))
	return nil
}

// timeFlag reads the time flag name's value v as every data command
// takes times (history.ParseTime), the flag named in its error.
func timeFlag(name, v string, now time.Time, loc *time.Location) (time.Time, error) {
	t, err := history.ParseTime(v, now, loc)
	if err != nil {
		return t, fmt.Errorf("--%s: %w", name, err)
	}
	return t, nil
}

// openAlone opens the database for a command that must be its one writer
// (import, forget): a running hub holds its lock, and the error says to
// stop the hub first.
func openAlone(ctx context.Context, cmd, db string, loc *time.Location) (*history.Store, error) {
	store, err := history.Open(ctx, db, &history.Options{Location: loc})
	if locked := (*history.LockedError)(nil); errors.As(err, &locked) {
		// The hub is the one writer of its database: an import beside it
		// would race its series and count its rain twice.
		return nil, fmt.Errorf("%[1]s: %[2]s is in use by a running hub (%[3]s): stop the hub first (systemctl stop climated), %[1]s, then start it again (systemctl start climated)", cmd, db, locked.Holder())
	}
	return store, err
}

// Import is `climated import FILE`: readings in export's CSV.
func Import(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := cli.NewDataFlags("import", stdout, stderr)
	skipBad := d.FS.Bool("skip-bad", false, "import the good lines of a file with broken ones")
	cfg, err := d.Config(args, stderr)
	if err != nil {
		return err
	}
	if d.FS.NArg() != 1 {
		fmt.Fprint(stderr, cli.UsageLine("import"))
		return cli.ErrUsage
	}
	f, err := os.Open(d.FS.Arg(0))
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	loc, _ := cfg.Location()
	store, err := openAlone(ctx, "import", cfg.Database, loc)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	// How far through the file the reader is, for the bar.
	in := &progress.CountingReader{R: f}
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	bar := progress.New(stderr, "imported", readings)
	res, err := store.Import(ctx, in, history.ImportOptions{SkipBad: *skipBad, Progress: func(n int64) {
		bar.Update(n, progress.Fraction(in.N(), size))
	}})
	bar.Done()
	if err != nil {
		return err
	}
	// Readings a hub left waiting for compaction (a backfill it had not
	// caught up with) would make long charts read them raw until it has.
	if err := store.Compact(ctx); err != nil {
		fmt.Fprintf(stderr, "climated import: the readings are imported; compacting the older ones failed, the hub finishes it once started: %v\n", err)
	}
	reportImport(ctx, store, imported{ImportResult: res, file: d.FS.Arg(0), db: cfg.Database}, stdout, stderr)
	return nil
}

// imported is what an import did: its result, from which file into which
// database.
type imported struct {
	history.ImportResult
	file, db string
}

// reportImport prints the broken lines (the first 20) and the summary,
// with the readings the history now holds ahead of the clock.
func reportImport(ctx context.Context, store *history.Store, res imported, stdout, stderr io.Writer) {
	file, db := res.file, res.db
	for i, b := range res.Bad {
		if i == 20 {
			fmt.Fprintf(stderr, "… and %d more broken lines\n", len(res.Bad)-20)
			break
		}
		fmt.Fprintf(stderr, "skipped %s: %v\n", file, b)
	}
	fmt.Fprintf(stdout, "imported %s from %s into %s (%s skipped)\n", config.Plural(int(res.Imported), "reading"), file, db, config.Plural(len(res.Bad), "broken line"))
	now := time.Now()
	switch a, err := store.Ahead(ctx, now); {
	case err != nil:
		fmt.Fprintf(stderr, "climated import: %v\n", err)
	case a.Count > 0:
		fmt.Fprintf(stdout, "%s\n%s\n", stampguard.AheadText(a, now), stampguard.AheadFix())
	}
}

// readings is a count of readings in words, for a progress bar.
func readings(n int64) string { return config.Plural(int(n), "reading") }
