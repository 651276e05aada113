package datacmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"text/tabwriter"
	"time"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
)

// Forget is `climated forget --after TIME|--ahead [--yes]`: the
// readings stamped after TIME (with --ahead, ahead of the clock now) leave
// every tier of the history (history.Forget), with the hub stopped. Without --yes it says what would go and deletes
// nothing.
func Forget(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	d := cli.NewDataFlags("forget", stdout, stderr)
	after := d.FS.String("after", "", "delete the readings stamped after this `TIME` (2026-11-30T08:15:00Z, a date, 24h …)")
	ahead := d.FS.Bool("ahead", false, "delete the readings stamped ahead of the clock as it is now (after it plus 15 minutes)")
	yes := d.FS.Bool("yes", false, "delete them; without it, only say what would be deleted")
	cfg, err := d.Config(args, stderr)
	if err != nil {
		return err
	}
	if d.FS.NArg() > 0 || (*after == "") == !*ahead {
		fmt.Fprintf(stderr, "climated forget: --after TIME or --ahead is required (one of them), and nothing else\n%s", cli.UsageLine("forget"))
		return cli.ErrUsage
	}
	loc, _ := cfg.Location()
	t, err := forgetTime(*after, *ahead, time.Now(), loc)
	if err != nil {
		return err
	}
	// Forgetting creates no database.
	if _, err := os.Stat(cfg.Database); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("forget: no database at %s (--db or database: in --config names it)", cfg.Database)
	}
	store, err := openAlone(ctx, "forget", cfg.Database, loc)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	rep, err := store.Forget(ctx, t, *yes)
	if err != nil {
		return err
	}
	again := "--after " + rfc3339(rep.After)
	if *ahead {
		again = "--ahead"
	}
	printForget(stdout, rep, cfg.Database, again)
	return nil
}

// forgetTime is the time after which forget deletes: --after's, or with
// --ahead the newest current time (climate.NewestCurrent), which a clock
// that is not set does not have.
func forgetTime(after string, ahead bool, now time.Time, loc *time.Location) (time.Time, error) {
	if !ahead {
		return timeFlag("after", after, now, loc)
	}
	h := climate.NewestCurrent(now)
	if h == math.MaxInt64 {
		return time.Time{}, fmt.Errorf("forget --ahead: the clock says %s, before it was ever set: set it first (timedatectl set-ntp true)", rfc3339(now))
	}
	return time.Unix(h, 0), nil
}

// printForget says what the report deleted, or would delete: the rows of
// each table and series, the buckets that straddle the time, and how to
// go on.
func printForget(w io.Writer, rep history.ForgetReport, db, again string) {
	after := rfc3339(rep.After)
	if len(rep.Rows) == 0 && len(rep.Split) == 0 {
		fmt.Fprintf(w, "no readings stamped after %s in %s: nothing to delete\n", after, db)
		return
	}
	fmt.Fprintf(w, "readings stamped after %s in %s:\n", after, db)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s … %s\n", r.Table, seriesLabel(r.Zone, string(r.Measurement)), forgetCount(r), rfc3339(r.First), rfc3339(r.Last))
	}
	tw.Flush()
	if len(rep.Split) > 0 {
		fmt.Fprintln(w, "buckets that straddle the time:")
	}
	for _, b := range rep.Split {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", b.Table, seriesLabel(b.Zone, string(b.Measurement)), rfc3339(b.Start), splitText(b))
	}
	tw.Flush()
	if !rep.Applied {
		fmt.Fprintf(w, "dry run: nothing deleted. To delete them, add --yes: climated forget %s --yes\n", again)
		return
	}
	fmt.Fprintf(w, "deleted %s stamped after %s, and their summaries; everything up to then is as it was\n", config.Plural(int(rep.Readings()), "reading"), after)
}

func seriesLabel(zone, m string) string {
	if m == "" {
		return zone
	}
	return zone + "/" + m
}

// forgetCount is a table's rows in words: readings, or buckets and the
// readings they summarise.
func forgetCount(r history.ForgetRows) string {
	if r.Table == "raw" || r.Table == "recent" {
		return config.Plural(int(r.Rows), "reading")
	}
	return fmt.Sprintf("%s of %s", config.Plural(int(r.Rows), "bucket"), config.Plural(int(r.Readings), "reading"))
}

// splitText is what becomes of a bucket that straddles the time.
func splitText(b history.SplitBucket) string {
	switch {
	case b.Whole:
		return fmt.Sprintf("kept whole (%s): the raw readings that would split it are past their retention", config.Plural(int(b.Readings), "reading"))
	case b.Kept == 0:
		return fmt.Sprintf("deleted: its %s are all after the time", config.Plural(int(b.Readings), "reading"))
	}
	return fmt.Sprintf("keeps %s up to the time, of %d", config.Plural(int(b.Kept), "reading"), b.Readings)
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }
