package datacmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/progress"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/weewx"
	"github.com/climated/climated/internal/excerpt"
	"github.com/climated/climated/sensors"
)

// weewxFlags are import's flags for a weewx archive.
type weewxFlags struct {
	zones  zoneFlags
	dryRun bool
}

// zoneFlags are the --zone flags: a part of the station or a column, and
// its zone.
type zoneFlags map[string]string

func (z zoneFlags) String() string {
	var kv []string
	for k, v := range z {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

func (z zoneFlags) Set(v string) error {
	k, zone, ok := strings.Cut(v, "=")
	if k = strings.TrimSpace(k); !ok || k == "" {
		return fmt.Errorf("%q: want PART=ZONE or COLUMN=ZONE (outdoor=Garden, extraTemp1=Cellar)", v)
	}
	zone = strings.TrimSpace(zone)
	if zone != "" { // an empty zone leaves the column out
		if err := sensors.CheckZone(zone); err != nil {
			return fmt.Errorf("%s: the zone %s is %w", k, excerpt.Quote(zone), err)
		}
	}
	z[k] = zone
	return nil
}

// importWeewx imports a weewx archive, or with --dry-run says what it
// would import.
func importWeewx(ctx context.Context, in importIn, w weewxFlags, stdout, stderr io.Writer) error {
	a, err := weewx.Open(ctx, in.file, &weewx.Options{Zones: w.zones})
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer a.Close()
	if w.dryRun {
		return dryRunWeewx(ctx, a, in, stdout, stderr)
	}
	store, err := openAlone(ctx, "import", in.db, in.loc)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	if err := noAmountTwice(ctx, store, a); err != nil {
		return err
	}
	rows, err := a.Rows(ctx)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer rows.Close()
	bar := progress.New(stderr, "imported", readings)
	res, err := store.ImportRows(ctx, rows, history.ImportOptions{SkipBad: in.skipBad, What: "record", Progress: func(n int64) {
		bar.Update(n, progress.Fraction(rows.Read(), a.Records()))
	}})
	bar.Done()
	if err != nil {
		return err
	}
	compactImported(ctx, store, stderr)
	reportImport(ctx, store, imported{ImportResult: res, file: in.file, db: in.db, what: "record"}, stdout, stderr)
	return reportUnread(ctx, a, stdout)
}

// noAmountTwice refuses an import whose rain (or lightning) would add to
// what the history already holds over the archive's time: an archive
// imported twice would count it twice (values at one time add up), where
// temperatures only replace themselves.
func noAmountTwice(ctx context.Context, store *history.Store, a *weewx.Archive) error {
	first, last := a.Span()
	if first.IsZero() {
		return nil
	}
	for _, m := range a.Mappings() {
		if info, _ := sensors.Lookup(m.Measurement); m.Zone == "" || info.Kind != sensors.Amount {
			continue
		}
		// One bucket over exactly the archive's span: the summary is all
		// the check reads.
		from, to := first.Add(-time.Second), last.Add(time.Second)
		got, err := store.Range(ctx, history.Query{Zone: m.Zone, Measurement: m.Measurement, From: from, To: to, Step: to.Sub(from)})
		var arg *history.ArgError
		if errors.As(err, &arg) && (arg.Arg == "zone" || arg.Arg == "measurement") {
			continue // none yet
		}
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		if got.Summary != nil && got.Summary.Count > 0 {
			return fmt.Errorf("import: nothing imported: %s already has %s between the archive's first record and its last (an earlier import of it?); imported again, %s would count twice. Import into another zone (--zone %s=ZONE) or without it (--zone %s=)",
				m.Zone, m.Measurement, m.Column, m.Column, m.Column)
		}
	}
	return nil
}

// dryRunWeewx reads the whole archive as the import would, and prints
// per zone and measurement how many readings it would import and their
// first and last time, and the broken records; it writes nothing.
func dryRunWeewx(ctx context.Context, a *weewx.Archive, in importIn, stdout, stderr io.Writer) error {
	rows, err := a.Rows(ctx)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer rows.Close()
	bar := progress.New(stderr, "read", readings)
	sum, err := summarise(ctx, rows, func(n int64) { bar.Update(n, progress.Fraction(rows.Read(), a.Records())) })
	bar.Done()
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	first, last := a.Span()
	fmt.Fprintf(stdout, "dry run, nothing written: %s holds %s", in.file, config.Plural(int(a.Records()), "record"))
	if !first.IsZero() {
		fmt.Fprintf(stdout, " from %s to %s", stamp(first, in.loc), stamp(last, in.loc))
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "column\tzone\tmeasurement\treadings\tfirst\tlast")
	var empty []string
	for _, m := range a.Mappings() {
		s := sum.series[seriesName(m.Zone, m.Measurement)]
		switch {
		case m.Zone == "":
			fmt.Fprintf(tw, "%s\t(left out)\t%s\t\t\t\n", m.Column, m.Measurement)
		case s == nil:
			empty = append(empty, m.Column)
		default:
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", m.Column, m.Zone, m.Measurement, s.count, stamp(s.first, in.loc), stamp(s.last, in.loc))
		}
	}
	tw.Flush()
	for _, b := range sum.bad.First {
		fmt.Fprintf(stdout, "broken: %v\n", b)
	}
	if more := sum.bad.N - len(sum.bad.First); more > 0 {
		fmt.Fprintf(stdout, "… and %d more broken records\n", more)
	}
	if len(empty) > 0 {
		fmt.Fprintf(stdout, "nothing to import from: %s\n", strings.Join(empty, ", "))
	}
	fmt.Fprintf(stdout, "would import %s (%s)\n", config.Plural(int(sum.readings), "reading"), config.Plural(sum.bad.N, "broken record"))
	return reportUnread(ctx, a, stdout)
}

// stamp is t in the hub's time zone, to the second.
func stamp(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("2006-01-02 15:04:05 MST")
}

// reportUnread names the archive's columns with values that the import
// leaves out.
func reportUnread(ctx context.Context, a *weewx.Archive, stdout io.Writer) error {
	unread, err := a.Unread(ctx)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if len(unread) == 0 {
		return nil
	}
	names := make([]string, 0, len(unread))
	for n := range unread {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = fmt.Sprintf("%s (%d)", n, unread[n])
	}
	fmt.Fprintf(stdout, "not imported, no measurement of the hub's (values): %s\n", strings.Join(names, ", "))
	return nil
}

// span is what a dry run found of one series: how many readings, the
// first and last time.
type span struct {
	count       int64
	first, last time.Time
}

// summary is a dry run's reading of the rows.
type summary struct {
	series   map[string]*span // by zone and measurement (seriesName)
	readings int64
	bad      history.BrokenLines
}

func seriesName(zone string, m sensors.Measurement) string { return zone + "\x00" + string(m) }

// summarise reads rows to their end as an import would, writing nothing.
func summarise(ctx context.Context, rows history.ImportRows, progress func(int64)) (summary, error) {
	sum := summary{series: map[string]*span{}}
	for {
		row, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			return sum, nil
		}
		if err != nil {
			return sum, err
		}
		if row.Err != nil {
			sum.bad.Add(history.LineError{Line: row.Line, Where: row.Where, Err: row.Err})
		}
		for _, r := range row.Readings {
			k := seriesName(r.Zone, r.Measurement)
			s := sum.series[k]
			if s == nil {
				s = &span{first: r.Time}
				sum.series[k] = s
			}
			s.count++
			s.first, s.last = minTime(s.first, r.Time), maxTime(s.last, r.Time)
		}
		sum.readings += int64(len(row.Readings))
		progress(sum.readings)
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
