// Command yearhouse measures a hub that holds a year of history: it
// writes a year of a house's readings as climated export's CSV (a
// weather station in the Garden every minute: temperature, humidity,
// wind, its direction and gusts, solar radiation, UV and rain; Living and
// Bedroom every five minutes: temperature, humidity, CO2; about 4.3
// million readings, the same for the same seed), imports them with
// climated import into a new database, starts climated serve on it on
// loopback, and times every answer the hub gives at its longest span
// through the go-sdk's client over Streamable HTTP: each tool, resource,
// resource template and prompt the server lists (so that a new one is
// measured without a change here), and the dashboard's history requests.
// It prints a table of the median time, the size and the tokens of each,
// against the goal of 50 ms. scripts/yearhouse.sh builds and runs it.
//
// With -url it measures a hub that runs already instead.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type options struct {
	bin      string
	days     int
	runs     int
	seed     uint64
	json     bool
	work     string
	keep     bool
	url      string
	token    string
	goal     time.Duration
	timezone string
	commit   string
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "", "the climated binary (scripts/yearhouse.sh builds it)")
	flag.IntVar(&o.days, "days", 365, "days of history the house holds, ending now")
	flag.IntVar(&o.runs, "runs", 3, "calls of each answer; the table shows their median")
	flag.Uint64Var(&o.seed, "seed", 1, "the weather's seed: the same seed, the same readings at the same times")
	flag.BoolVar(&o.json, "json", false, "print the results as JSON rather than a table")
	flag.StringVar(&o.work, "work", "", "where the CSV and the database go (default: a new temporary directory, removed after)")
	flag.BoolVar(&o.keep, "keep", false, "keep the working directory")
	flag.StringVar(&o.url, "url", "", "measure the hub serving this Streamable HTTP endpoint instead of building the house")
	flag.StringVar(&o.token, "token", "", "with -url: the hub's bearer token")
	flag.DurationVar(&o.goal, "goal", 50*time.Millisecond, "the time every answer should take at most")
	flag.StringVar(&o.timezone, "timezone", "Europe/Berlin", "the house's time zone")
	flag.StringVar(&o.commit, "commit", "", "the commit measured, for the table's heading")
	flag.Parse()
	if o.bin == "" && o.url == "" {
		fmt.Fprintln(os.Stderr, "yearhouse: -bin or -url is required (scripts/yearhouse.sh builds the binary)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "yearhouse:", err)
		os.Exit(1)
	}
}

// run builds the house and its hub (unless o.url names one), measures it
// and prints the results to stdout; progress goes to progress.
func run(ctx context.Context, o options, stdout, progress io.Writer) error {
	if o.runs < 1 || o.days < 1 {
		return fmt.Errorf("-runs and -days must be at least 1")
	}
	rep := newReport(o)
	url, tok := o.url, o.token
	if url == "" {
		h, t, stop, err := build(o, rep, progress)
		if err != nil {
			return err
		}
		defer stop()
		url, tok = h.url, t
	}
	if err := measureHub(ctx, url, tok, o, rep, progress); err != nil {
		return err
	}
	if err := rep.print(stdout, o.json); err != nil {
		return err
	}
	if n := rep.failed(); n > 0 {
		return fmt.Errorf("%d answers failed (their error is in the table)", n)
	}
	return nil
}
