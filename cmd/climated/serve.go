package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/history"
	"github.com/climated/climated/mcp"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/demo"
)

// Shutdown and server limits.
const (
	shutdownTimeout   = 10 * time.Second
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
	// The demo house fills in up to a day it missed, so that extremes,
	// trends and rain sums mean something from the first call.
	demoBackfill = 24 * time.Hour
)

func parseServe(args []string, stdout, stderr io.Writer) (Config, error) {
	cfg := defaultConfig()
	fs := newFlagSet("serve", stderr)
	configPath := fs.String("config", "", "YAML configuration `FILE`")
	listen := fs.String("listen", "", "HTTP address `HOST:PORT` (default "+DefaultListen+")")
	db := fs.String("db", "", "SQLite database `FILE` (default "+cfg.Database+")")
	demoFlag := fs.Bool("demo", false, "run the simulated demo house")
	if err := parseFlags(fs, args, stdout, stderr); err != nil {
		return cfg, err
	}
	return loadConfig(*configPath, cfg, func(c *Config) {
		if *listen != "" {
			c.Listen = *listen
		}
		if *db != "" {
			c.Database = *db
		}
		if *demoFlag {
			c.Demo.Enabled = true
		}
	})
}

var _ mcp.Hub = (*history.Store)(nil)

// hub is what serve started, for tests to reach.
type hub struct {
	Addr  net.Addr
	Store *history.Store
	Zones []string
}

// processStart is close enough to the start of the process to measure
// start-up by (package variables are set before main runs).
var processStart = time.Now()

// serveEnv is what a caller of serve may add: a callback once everything
// is up, fakes for the hardware, and what a reload needs.
type serveEnv struct {
	ready func(hub)
	seams seams
	// reload asks for the configuration to be read again with load (a
	// SIGHUP); level is the log level a reload may change.
	reload <-chan struct{}
	load   func() (Config, error)
	level  *slog.LevelVar
	// stderr is where the log goes, for a progress bar when it is a
	// terminal; nil is none.
	stderr io.Writer
}

// serve runs the hub until ctx ends, then shuts down in reverse order:
// sources stop, history is flushed and closed, the HTTP server drains.
// cfg comes validated, from loadConfig.
func serve(ctx context.Context, cfg Config, log *slog.Logger, env serveEnv) error {
	loc, _ := cfg.location()
	// The port first: a hub that cannot serve must not have created a
	// database or written a day of demo history before it says so.
	ln, err := listen(cfg.Listen)
	if err != nil {
		return err
	}
	defer ln.Close() // after Serve took it, a second close is harmless
	// The token next: a token file others can read stops the hub before
	// it writes anything else.
	var token string
	if cfg.needsToken() {
		if token, err = loadOrCreateToken(cfg.tokenFile()); err != nil {
			return err
		}
		log.Info("listening beyond loopback: every request needs the bearer token", "token_file", cfg.tokenFile(), "print_it_with", "climated token")
	}
	m := newMetrics()
	store, err := history.Open(ctx, cfg.Database, &history.Options{Location: loc, Logger: log.With("component", "history"), OnFlush: m.onFlush,
		RawRetention: time.Duration(cfg.Retention.Raw), RollupRetention: time.Duration(cfg.Retention.FiveMinute)})
	if err != nil {
		return err
	}
	storeOpen := true
	defer func() {
		if storeOpen {
			store.Close(context.Background())
		}
	}()
	log.Info("history open", "database", store.Path())

	set, err := buildSources(ctx, cfg, log, env.seams, store)
	if err != nil {
		return err
	}
	if set.house != nil {
		if err := fillDemoPast(ctx, cfg, loc, store, log, env.stderr); err != nil {
			return err
		}
	}

	run := newRunning(log, newClockGuard(countingSink{store, m}, log, store.Latest()), set)
	defer run.stop()

	srv := mcp.New(ctx, store, &mcp.Options{
		Version:   buildVersion(),
		Zones:     set.zones,
		Simulated: set.simulated,
		Location:  loc,
		Logger:    log.With("component", "mcp"),
	})
	m.watch(store, store.Path(), srv.Sessions, run)
	// Cancelling baseCtx ends every request's context, so that event
	// streams that clients hold open do not hold up the shutdown.
	baseCtx, cancelRequests := context.WithCancel(context.Background())
	defer cancelRequests()
	httpSrv := &http.Server{
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
		Handler:           m.instrument(hubFront(srv, store, run, m, token, cfg, log)),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	httpErr := make(chan error, 1)
	go func() { httpErr <- httpSrv.Serve(ln) }()

	run.start(ctx, set)

	wdCtx, stopWatchdog := context.WithCancel(ctx)
	defer stopWatchdog()
	go watchdog(wdCtx, log, liveness{ping: store.Ping, addr: ln.Addr()})
	go trimMemory(wdCtx, trimEvery)
	notify(log, daemon.SdNotifyReady)

	base := "http://" + ln.Addr().String()
	log.Info("serving MCP", "startup", time.Since(processStart).Round(time.Millisecond), "streamable_http", base+"/mcp", "sse", base+"/sse", "api", base+"/api/climate", "database", store.Path())
	if env.ready != nil {
		env.ready(hub{Addr: ln.Addr(), Store: store, Zones: set.zones})
	}

	rl := &reloader{log: log, load: env.load, level: env.level, seams: env.seams, store: store, run: run, m: m}
	var runErr error
	for serving := true; serving; {
		select {
		case <-ctx.Done():
			log.Info("shutting down")
			serving = false
		case err := <-httpErr:
			runErr = fmt.Errorf("http server: %w", err)
			serving = false
		case <-env.reload:
			if env.load == nil {
				log.Warn("reload: no configuration to read again (started without one); nothing changed")
				continue
			}
			cfg = rl.reload(ctx, cfg)
		}
	}

	notify(log, daemon.SdNotifyStopping)
	stopWatchdog()
	run.stop()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	storeOpen = false
	if err := store.Close(sctx); err != nil {
		log.Error("close history", "err", err)
		runErr = errors.Join(runErr, err)
	}
	srv.Close()
	cancelRequests()
	if err := httpSrv.Shutdown(sctx); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	log.Info("stopped")
	return runErr
}

// hubFront is the listener's handler: the MCP transports, /api/climate,
// /healthz and /metrics, behind the checks of who may call.
func hubFront(srv *mcp.Server, store *history.Store, run *running, m *metrics, token string, cfg Config, log *slog.Logger) http.Handler {
	return front.New(front.Routes{
		MCP:     srv.Handler(),
		Climate: func() []byte { return store.Snapshot().JSON },
		Health:  []func() error{run.healthy(store), srv.Ready},
		Metrics: m.handler(),
	}, &front.Options{Token: token, AllowedHosts: cfg.AllowedHosts, AllowedOrigins: cfg.AllowedOrigins, Logger: log.With("component", "http")})
}

// fillDemoPast fills the gap since the last run before serving, so that
// the first get_climate already has its extremes, trends and rain sums.
// The past is filled at one reading a minute whatever the live interval:
// the house is a pure function of time, so a second house with the same
// seed gives the same values.
// A bar goes to term when it is a terminal; nil is none.
func fillDemoPast(ctx context.Context, cfg Config, loc *time.Location, store *history.Store, log *slog.Logger, term io.Writer) error {
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
	bar := newProgress(term, "demo house: filling in a day of history", readings)
	bar.line = func(msg string) { log.Info(msg) }
	err := past.Backfill(ctx, &fillSink{Sink: store, bar: bar, from: from, to: now}, from, now)
	bar.done()
	if err != nil {
		return fmt.Errorf("demo house: fill in history: %w", err)
	}
	// On disk before serving, so that readers beside the daemon (climated
	// mcp) see it too.
	if err := store.Flush(ctx); err != nil {
		return fmt.Errorf("demo house: write history: %w", err)
	}
	log.Info("demo house: history filled in", "from", from.Format(time.RFC3339), "took", time.Since(t0).Round(time.Millisecond))
	// The fill is a one-off burst of garbage: give its memory back now
	// rather than let the hub sit on it.
	debug.FreeOSMemory()
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

// listen opens the hub's port, with a hint at the usual cause when it is
// taken.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("listen on %s: %w: another climated running? (systemctl status climated) Stop it, or choose another address with --listen HOST:PORT or listen: in the configuration", addr, err)
	}
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// fillSink shows the demo fill's progress by the time its readings reach.
type fillSink struct {
	sensors.Sink
	bar      *progress
	from, to time.Time
	n        int64
}

func (f *fillSink) Record(ctx context.Context, rs []sensors.Reading) error {
	err := f.Sink.Record(ctx, rs)
	if len(rs) > 0 {
		f.n += int64(len(rs))
		f.bar.update(f.n, fraction(int64(rs[len(rs)-1].Time.Sub(f.from)), int64(f.to.Sub(f.from))))
	}
	return err
}
