package sources

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/progress"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// demoBackfill: the demo house fills in up to a day it missed, so that
// extremes, trends and rain sums mean something from the first call.
const demoBackfill = 24 * time.Hour

// FillDemoPast fills the gap since the last run before serving, so that
// the first get_climate already has its extremes, trends and rain sums.
// The past is filled at one reading a minute whatever the live interval:
// the house is a pure function of time, so a second house with the same
// seed gives the same values.
// A bar goes to term (a progress.Bar) when it is a terminal; nil is none.
func FillDemoPast(ctx context.Context, cfg config.Config, d Deps, term io.Writer) error {
	store, log := d.Hub, d.Log
	loc, _ := cfg.Location() // validated at start-up
	now := time.Now()
	from := backfillFrom(store.Latest(), now)
	if !from.Before(now) {
		return nil
	}
	t0 := time.Now()
	past := demo.New(&demo.Options{Seed: cfg.Demo.Seed, Interval: max(cfg.Demo.Interval, demo.DefaultInterval), Location: loc})
	// A Pi Zero takes a while over a day of readings: show it, as a bar
	// on a terminal and as log lines (only if it is slow) elsewhere.
	if term == nil {
		term = io.Discard
	}
	bar := progress.New(term, "demo house: filling in a day of history", readings)
	bar.Line = func(msg string) { log.Info(msg) }
	err := past.Backfill(ctx, &fillSink{Sink: store, bar: bar, from: from, to: now}, from, now)
	bar.Done()
	if err != nil {
		return fmt.Errorf("demo house: fill in history: %w", err)
	}
	// On disk before serving, so that readers beside the daemon (climated
	// mcp) see it too. A disk that refuses it (full) does not keep the hub
	// from serving: the readings wait in the writer, which retries.
	if err := store.Flush(ctx); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("demo house: write history: %w", err)
		}
		log.Warn("demo house: history filled in, not on disk yet; the writer retries", "err", err)
	}
	log.Info("demo house: history filled in", "from", from.Format(time.RFC3339), "took", time.Since(t0).Round(time.Millisecond))
	return nil
}

// backfillFrom is where the demo house starts filling in: just after the
// newest recorded reading (recording it again would add its rain twice),
// and at most a day back.
func backfillFrom(latest, now time.Time) time.Time {
	from := now.Add(-demoBackfill)
	if latest.After(from) {
		from = latest.Add(time.Second)
	}
	return from
}

// fillSink shows the demo fill's progress by the time its readings reach.
type fillSink struct {
	sensors.Sink
	bar      *progress.Bar
	from, to time.Time
	n        int64
}

func (f *fillSink) Record(ctx context.Context, b sensors.Batch) error {
	err := f.Sink.Record(ctx, b)
	rs := b.Readings
	if len(rs) > 0 {
		f.n += int64(len(rs))
		f.bar.Update(f.n, progress.Fraction(int64(rs[len(rs)-1].Time.Sub(f.from)), int64(f.to.Sub(f.from))))
	}
	return err
}

// readings is a count of readings in words, for a progress bar.
func readings(n int64) string { return config.Plural(int(n), "reading") }

// ForgetDemo, when the demo house does not run (real sources do, or
// demo: enabled: false), deletes what it recorded before, so that its
// simulated readings are not shown as the house's: its zones leave
// get_climate and the dashboard, and a zone it shared with a real sensor
// keeps the sensor's readings only. The log says what went. When the
// demo runs beside real sources (demo: enabled: true), the log names the
// zones it shares with them: a measurement there stays measured (a
// series is never both: sensors.Claim), the demo fills in the others. Call it before
// the set's sources run.
func ForgetDemo(ctx context.Context, set *Set, d Deps) error {
	if set.House != nil {
		warnMixed(set, d)
		return nil
	}
	if d.Hub == nil {
		return nil
	}
	rep, err := d.Hub.ForgetSource(ctx, demo.SourcePrefix)
	if err != nil {
		return fmt.Errorf("demo house: forget its simulated readings: %w", err)
	}
	if len(rep.Series) > 0 {
		d.Log.Info("demo house: its simulated readings are forgotten, as it no longer runs (real sources do, or demo: enabled: false)",
			"zones", rep.Zones(), "series", len(rep.Series), "readings", rep.Readings)
	}
	return nil
}

// warnMixed names the zones the demo house shares with real sources.
func warnMixed(set *Set, d Deps) {
	if len(set.Mixed) > 0 {
		sayMixed(d.Log, set.Mixed)
	}
}

// sayMixed names zones the demo house shares with real sources.
func sayMixed(log *slog.Logger, zones []string) {
	log.Warn("demo house runs beside real sources (demo: enabled: true): in these zones what a real sensor measures replaces the demo's simulated values, and the demo fills in the rest", "zones", zones)
}
