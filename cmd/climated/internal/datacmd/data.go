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
	// Command: opened in another time zone than the hub's (another
	// --config, a shell's TZ), it leaves the hub's kept daily summaries
	// but for the days it changes, and a failed command changes none.
	store, err := history.Open(ctx, db, &history.Options{Location: loc, Command: true})
	if locked := (*history.LockedError)(nil); errors.As(err, &locked) {
		// The hub is the one writer of its database: an import beside it
		// would race its series and count its rain twice.
		return nil, fmt.Errorf("%[1]s: %[2]s is in use by a running hub (%[3]s): stop the hub first (systemctl stop climated), %[1]s, then start it again (systemctl start climated)", cmd, db, locked.Holder())
	}
	return store, err
}

// Import is `climated import FILE`: readings in export's CSV, or (with
// --from weewx) a weewx archive's records.
func Import(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := cli.NewDataFlags("import", stdout, stderr)
	skipBad := d.FS.Bool("skip-bad", false, "import the good lines of a file with broken ones (weewx: the good values of broken records)")
	from := d.FS.String("from", "csv", "the file's `FORMAT`: csv (climated export's) or weewx (a weewx archive, weewx.sdb)")
	w := weewxFlags{zones: zoneFlags{}}
	d.FS.Var(w.zones, "zone", "with --from weewx: `PART=ZONE` or COLUMN=ZONE, the zone of a part of the station or of a weewx column (outdoor=Garden, extraTemp1=Cellar; empty leaves it out); again for more")
	d.FS.BoolVar(&w.dryRun, "dry-run", false, "with --from weewx: print what would be imported, and write nothing")
	cfg, err := d.Config(args, stderr)
	if err != nil {
		return err
	}
	if d.FS.NArg() != 1 {
		fmt.Fprint(stderr, cli.UsageLine("import"))
		return cli.ErrUsage
	}
	in := importIn{file: d.FS.Arg(0), db: cfg.Database, skipBad: *skipBad}
	in.loc, _ = cfg.Location()
	switch *from {
	case "weewx":
		return importWeewx(ctx, in, w, stdout, stderr)
	case "csv":
		if len(w.zones) > 0 || w.dryRun {
			return fmt.Errorf("import: --zone and --dry-run are for a weewx archive (--from weewx)")
		}
		return importCSV(ctx, in, stdout, stderr)
	}
	return fmt.Errorf("import: --from %q: want csv or weewx", *from)
}

// importIn is what an import reads and where it writes.
type importIn struct {
	file, db string
	loc      *time.Location
	skipBad  bool
}

// importCSV imports a file in export's CSV.
func importCSV(ctx context.Context, in importIn, stdout, stderr io.Writer) error {
	f, err := os.Open(in.file)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	store, err := openAlone(ctx, "import", in.db, in.loc)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	// How far through the file the reader is, for the bar.
	cr := &progress.CountingReader{R: f}
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	bar := progress.New(stderr, "imported", readings)
	res, err := store.Import(ctx, cr, history.ImportOptions{SkipBad: in.skipBad, Progress: func(n int64) {
		bar.Update(n, progress.Fraction(cr.N(), size))
	}})
	bar.Done()
	if err != nil {
		return err
	}
	compactImported(ctx, store, stderr)
	reportImport(ctx, store, imported{ImportResult: res, file: in.file, db: in.db}, stdout, stderr)
	return nil
}

// compactImported moves on what a hub left waiting for compaction (a
// backfill it had not caught up with), which would make long charts
// read it raw until the hub has.
func compactImported(ctx context.Context, store *history.Store, stderr io.Writer) {
	if err := store.Compact(ctx); err != nil {
		fmt.Fprintf(stderr, "climated import: the readings are imported; compacting the older ones failed, the hub finishes it once started: %v\n", err)
	}
}

// imported is what an import did: its result, from which file into which
// database.
type imported struct {
	history.ImportResult
	file, db string
	what     string // what its broken parts are: "line" (""), "record"
}

// reportImport prints the broken lines (the first 20) and the summary,
// with the readings the history now holds ahead of the clock.
func reportImport(ctx context.Context, store *history.Store, res imported, stdout, stderr io.Writer) {
	file, db, what := res.file, res.db, res.what
	if what == "" {
		what = "line"
	}
	for _, b := range res.Bad.First {
		fmt.Fprintf(stderr, "skipped %s: %v\n", file, b)
	}
	if more := res.Bad.N - len(res.Bad.First); more > 0 {
		fmt.Fprintf(stderr, "… and %d more broken %ss\n", more, what)
	}
	skipped := config.Plural(res.Bad.N, "broken "+what) + " skipped"
	if what == "record" && res.Bad.N > 0 {
		// A weewx record's good values are imported, only the bad ones left out.
		skipped = config.Plural(res.Bad.N, "broken "+what) + ", their bad values skipped"
	}
	fmt.Fprintf(stdout, "imported %s from %s into %s (%s)\n", config.Plural(int(res.Imported), "reading"), file, db, skipped)
	if res.Summarised > 0 {
		fmt.Fprintf(stdout, "left out %s older than the raw retention: the history summarises their 5-minute spans already (imported before?), and holds no single reading that old to tell a repeat by\n",
			config.Plural(int(res.Summarised), "reading"))
	}
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
