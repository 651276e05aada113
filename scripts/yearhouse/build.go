package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// build writes the house, imports it into a new database and starts the
// hub on it; stop ends the hub and removes what build made (unless
// -keep).
func build(o options, rep *report, progress io.Writer) (h *hub, tok string, stop func(), err error) {
	loc, err := time.LoadLocation(o.timezone)
	if err != nil {
		return nil, "", nil, err
	}
	dir, remove, err := workDir(o)
	if err != nil {
		return nil, "", nil, err
	}
	defer func() {
		if err != nil {
			remove()
		}
	}()
	csv := filepath.Join(dir, "house.csv")
	hs, err := writeHouse(csv, o.days, o.seed, time.Now(), loc)
	if err != nil {
		return nil, "", nil, err
	}
	rep.House, rep.HouseSeconds = &hs, hs.Took.Seconds()
	fmt.Fprintf(progress, "house: %d readings over %d days in %.1f s (%.0f MB of CSV)\n", hs.Readings, o.days, hs.Took.Seconds(), float64(hs.Bytes)/1e6)
	config, db, err := writeConfig(dir, o.timezone)
	if err != nil {
		return nil, "", nil, err
	}
	is, err := importHouse(o.bin, config, db, csv, hs.Readings)
	if err != nil {
		return nil, "", nil, err
	}
	rep.Import = &is
	if !o.keep {
		os.Remove(csv) // the database holds it now: a small card need not hold both
	}
	fmt.Fprintf(progress, "climated import: %.1f s, %.0f rows/s, database %.0f MB\n", is.Seconds, is.PerSec, float64(is.DBBytes)/1e6)
	if tok, err = token(o.bin, config); err != nil {
		return nil, "", nil, err
	}
	start := time.Now()
	if h, err = serve(o.bin, config); err != nil {
		return nil, "", nil, err
	}
	rep.StartSeconds = time.Since(start).Seconds()
	rep.SettleSeconds = h.settle(2 * time.Minute).Seconds()
	fmt.Fprintf(progress, "climated serve: serving %s after %.1f s, idle after %.0f s more\n", h.url, rep.StartSeconds, rep.SettleSeconds)
	return h, tok, func() { h.stop(); remove() }, nil
}

// workDir is o.work, or a new temporary directory; remove deletes what
// this run made there unless o.keep.
func workDir(o options) (dir string, remove func(), err error) {
	if o.work != "" {
		if err := os.MkdirAll(o.work, 0o755); err != nil {
			return "", nil, err
		}
		dir = o.work
	} else if dir, err = os.MkdirTemp("", "yearhouse-"); err != nil {
		return "", nil, err
	}
	return dir, func() {
		if o.keep {
			return
		}
		if o.work == "" {
			os.RemoveAll(dir)
			return
		}
		for _, f := range []string{"house.csv", "climated.yaml", "climated.db", "climated.db-wal", "climated.db-shm", "token"} {
			os.Remove(filepath.Join(dir, f))
		}
	}, nil
}

// measureHub connects to the hub at url, plans every answer and measures
// each in turn.
func measureHub(ctx context.Context, url, tok string, o options, rep *report, progress io.Writer) error {
	hc := &http.Client{Transport: bearer{token: tok, next: http.DefaultTransport}}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "yearhouse", Version: "1"}, nil)
	cs, err := c.Connect(cctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", url, err)
	}
	defer cs.Close()
	p := &plan{cs: cs}
	if p.s, err = listSurface(cctx, cs); err != nil {
		return err
	}
	if p.h, err = readHouse(cctx, cs); err != nil {
		return err
	}
	p.addTools()
	p.addResources(cctx)
	p.addPrompts(cctx)
	p.addDashboard(hc, strings.TrimSuffix(url, "/mcp"))
	fmt.Fprintf(progress, "measuring %d answers, %d calls each\n", len(p.answers), o.runs)
	for _, a := range p.answers {
		if err := ctx.Err(); err != nil {
			return err
		}
		rep.Rows = append(rep.Rows, measure(ctx, a, o.runs, o.goal))
	}
	rep.NotMeasured = append(rep.NotMeasured, p.skipped...)
	return nil
}
