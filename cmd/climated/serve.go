package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/climated/climated/cmd/climated/internal/clock"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/cmd/climated/internal/doctor"
	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
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

func parseServe(args []string, stdout, stderr io.Writer) (config.Config, error) {
	cfg := config.Default()
	fs := newFlagSet("serve", stderr)
	configPath := fs.String("config", "", "YAML configuration `FILE`")
	listen := fs.String("listen", "", "HTTP address `HOST:PORT` (default "+config.DefaultListen+")")
	db := fs.String("db", "", "SQLite database `FILE` (default "+cfg.Database+")")
	demoFlag := fs.Bool("demo", false, "run the simulated demo house")
	if err := parseFlags(fs, args, stdout, stderr); err != nil {
		return cfg, err
	}
	return config.Load(*configPath, cfg, func(c *config.Config) {
		if *listen != "" {
			c.Listen = *listen
		}
		if *db != "" {
			c.Database = *db
		}
		if *demoFlag {
			c.Demo.Enabled = new(true)
		}
	})
}

var _ mcp.Hub = (*hub.Hub)(nil)

// served is what serve started, for tests to reach.
type served struct {
	Addr  net.Addr
	Hub   *hub.Hub
	Zones []string
}

// processStart is close enough to the start of the process to measure
// start-up by (package variables are set before main runs).
var processStart = time.Now()

// serveEnv is what a caller of serve may add: a callback once everything
// is up, fakes for the hardware, and what a reload needs.
type serveEnv struct {
	ready func(served)
	seams seams
	// reload asks for the configuration to be read again with load (a
	// SIGHUP); level is the log level a reload may change.
	reload <-chan struct{}
	load   func() (config.Config, error)
	level  *slog.LevelVar
	// stderr is where the log goes, for a progress bar when it is a
	// terminal; nil is none.
	stderr io.Writer
}

// serve runs the hub until ctx ends, then shuts down in reverse order
// (hub.Hub.Close): the watchdog stops, the HTTP server drains, the sources
// stop, and the history is flushed and closed last.
// cfg comes validated, from loadConfig.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, env serveEnv) error {
	loc, _ := cfg.Location()
	// The port first: a hub that cannot serve must not have created a
	// database or written a day of demo history before it says so.
	ln, err := listen(cfg.Listen)
	if err != nil {
		return err
	}
	defer ln.Close() // after Serve took it, a second close is harmless
	// The token next: a token file others can read stops the hub before
	// it writes anything else.
	token, err := bearerToken(cfg, log)
	if err != nil {
		return err
	}
	m := newMetrics()
	disk := newDiskWatch(cfg.Database, doctor.DefaultMinFree, log.With("component", "history"))
	store, err := openHub(ctx, cfg, loc, func(d time.Duration, n int, err error) {
		m.onFlush(d, n, err)
		disk.flushed(err)
	}, log)
	if err != nil {
		return err
	}
	// Close stops every part started below, the last first, and closes
	// the history after them all; on an early return it is this one.
	defer store.Close(context.Background())

	set, err := buildSources(ctx, cfg, log, env.seams, store)
	if err != nil {
		return err
	}
	if set.house != nil {
		if err := fillDemoPast(ctx, cfg, store, log, env.stderr); err != nil {
			return err
		}
	}

	alert, err := openAlerting(ctx, cfg.Alerts, store, set.zones, log.With("component", "alerts"))
	if err != nil {
		return err
	}
	d := hubDeps{cfg: cfg, loc: loc, hub: store, sources: set, alert: alert, metrics: m, disk: disk, token: token, ln: ln, log: log}
	run, httpErr, err := startServing(ctx, d)
	if err != nil {
		alert.db.Close()
		return err
	}
	notify(log, daemon.SdNotifyReady)

	logServing(log, ln.Addr(), store.Path())
	if env.ready != nil {
		env.ready(served{Addr: ln.Addr(), Hub: store, Zones: set.zones})
	}

	rl := &reloader{log: log, load: env.load, level: env.level, seams: env.seams, store: store, run: run, m: m, alert: alert}
	runErr := rl.until(ctx, cfg, env, httpErr)
	notify(log, daemon.SdNotifyStopping)
	return stopHub(store, runErr, log)
}

// hubDeps are the parts of a hub that serve makes before it starts
// serving, in the order it makes them, for startServing and hubFront to
// wire together.
type hubDeps struct {
	cfg     config.Config
	loc     *time.Location
	hub     *hub.Hub
	sources *sourceSet
	alert   *alerting
	metrics *metrics
	disk    *diskWatch
	token   string // the bearer token; "" on loopback
	ln      net.Listener
	log     *slog.Logger
}

// startServing starts the alerts' dispatcher, the sources, the MCP server
// and the HTTP front, as parts of the hub d.hub; it returns the sources'
// runner and the HTTP server's end.
func startServing(ctx context.Context, d hubDeps) (*running, <-chan error, error) {
	h, set, log := d.hub, d.sources, d.log
	run := newRunning(log, clock.NewGuard(ctx, countingSink{h, d.metrics}, log, h), set)
	srv := mcp.New(ctx, h, &mcp.Options{
		Version: buildVersion(), Zones: set.zones, Simulated: set.simulated, Location: d.loc,
		Logger: log.With("component", "mcp"), Alerts: mcp.NewAlerts(d.alert.engine, d.alert.db),
	})
	if err := d.alert.wire(srv, set, log); err != nil {
		srv.Close()
		return nil, nil, err
	}
	// Started before the sources, so that it stops after them and hands
	// on their last events.
	h.Start("alerts", d.alert.run)
	d.metrics.watch(h, h.Path(), srv.Sessions, run)
	h.Start("disk watch", func(ctx context.Context) error { d.disk.run(ctx, diskEvery); return nil })
	web, err := hubFront(d, srv, run)
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	httpErr := startParts(ctx, d, run, srv, d.metrics.instrument(web))
	freeStartupMemory()
	return run, httpErr, nil
}

// stopHub closes the hub: the watchdog and the HTTP server stop first
// (requests drain while the history is open), then the sources, then the
// history; runErr joined with what failed.
func stopHub(h *hub.Hub, runErr error, log *slog.Logger) error {
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := h.Close(sctx); err != nil {
		log.Error("close history", "err", err)
		runErr = errors.Join(runErr, err)
	}
	log.Info("stopped")
	return runErr
}

// openHub opens the history and the hub around it; onFlush hears of
// every flush.
func openHub(ctx context.Context, cfg config.Config, loc *time.Location, onFlush func(time.Duration, int, error), log *slog.Logger) (*hub.Hub, error) {
	h, err := hub.Open(ctx, cfg.Database, &history.Options{Location: loc, Logger: log.With("component", "history"), OnFlush: onFlush,
		RawRetention: time.Duration(cfg.Retention.Raw), RollupRetention: time.Duration(cfg.Retention.FiveMinute),
		FlushInterval: time.Duration(cfg.CommitInterval)})
	if err != nil {
		return nil, err
	}
	log.Info("history open", "database", h.Path(), "commit_interval", time.Duration(cfg.CommitInterval))
	return h, nil
}

// bearerToken is the token every request needs when the hub listens beyond
// loopback, read or created; "" on loopback.
func bearerToken(cfg config.Config, log *slog.Logger) (string, error) {
	if !cfg.NeedsToken() {
		return "", nil
	}
	token, err := loadOrCreateToken(cfg.TokenPath())
	if err != nil {
		return "", err
	}
	log.Info("listening beyond loopback: every request needs the bearer token", "token_file", cfg.TokenPath(), "print_it_with", "climated token")
	return token, nil
}

// startParts starts the parts of the running hub, each owned by h, in an
// order that Close reverses: the sources, the HTTP server (so that it
// drains before the sources stop and the history closes), the watchdog
// and the memory trimmer. It returns the HTTP server's end.
func startParts(ctx context.Context, d hubDeps, run *running, srv *mcp.Server, web http.Handler) <-chan error {
	h, ln, log := d.hub, d.ln, d.log
	h.Start("sources", func(ctx context.Context) error {
		<-ctx.Done()
		run.stop()
		return nil
	})
	httpErr := h.Start("http", serveHTTP(ln, srv, web, log))
	run.start(ctx, d.sources)
	h.Start("watchdog", func(ctx context.Context) error {
		watchdog(ctx, log, liveness{ping: h.Ping, addr: ln.Addr()})
		return nil
	})
	h.Start("memory trim", func(ctx context.Context) error {
		trimMemory(ctx, trimEvery)
		return nil
	})
	return httpErr
}

// until serves reloads until ctx ends or the HTTP server fails, and
// returns the failure.
func (r *reloader) until(ctx context.Context, cfg config.Config, env serveEnv, httpErr <-chan error) error {
	for {
		select {
		case <-ctx.Done():
			r.log.Info("shutting down")
			return nil
		case err := <-httpErr:
			return fmt.Errorf("http server: %w", err)
		case <-env.reload:
			if env.load == nil {
				r.log.Warn("reload: no configuration to read again (started without one); nothing changed")
				continue
			}
			cfg = r.reload(ctx, cfg)
		}
	}
}

// serveHTTP is the HTTP server as a part of the hub: it serves on ln until
// its context ends, then closes the MCP sessions, ends every request's
// context (so that event streams clients hold open do not hold up the
// shutdown) and waits for the requests in flight.
func serveHTTP(ln net.Listener, srv *mcp.Server, h http.Handler, log *slog.Logger) func(context.Context) error {
	return func(ctx context.Context) error {
		baseCtx, cancelRequests := context.WithCancel(context.Background())
		defer cancelRequests()
		httpSrv := &http.Server{
			BaseContext:       func(net.Listener) context.Context { return baseCtx },
			Handler:           h,
			ReadHeaderTimeout: readHeaderTimeout,
			ReadTimeout:       readTimeout,
			WriteTimeout:      writeTimeout,
			IdleTimeout:       idleTimeout,
			MaxHeaderBytes:    maxHeaderBytes,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		}
		served := make(chan error, 1)
		go func() { served <- httpSrv.Serve(ln) }()
		select {
		case err := <-served:
			return err
		case <-ctx.Done():
		}
		srv.Close()
		cancelRequests()
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if err := httpSrv.Shutdown(sctx); err != nil {
			log.Warn("http shutdown", "err", err)
		}
		<-served
		return nil
	}
}

// hubFront is the listener's handler: the MCP transports, /api/climate,
// /healthz and /metrics, behind the checks of who may call, and the
// dashboard at / and /dash/, which makes its own (a login for browsers).
func hubFront(d hubDeps, srv *mcp.Server, run *running) (http.Handler, error) {
	store, cfg := d.hub, d.cfg
	f := front.New(front.Routes{
		MCP:      srv.Handler(),
		Climate:  func() []byte { return store.Snapshot().JSON },
		Health:   []func() error{run.healthy(store)}, // MCP refuses no client, so its sessions are no part of health (mcp/share.go)
		Warnings: []func() []string{d.disk.Warnings},
		Metrics:  d.metrics.handler(),
	}, &front.Options{Token: d.token, AllowedHosts: cfg.AllowedHosts, AllowedOrigins: cfg.AllowedOrigins, Logger: d.log.With("component", "http")})
	dsh, err := dash.New(dash.StoreSource{Store: store, ActiveAlerts: d.alert.dashboard, Levels: d.alert.engine.Levels}, &dash.Options{
		Simulated: d.sources.simulated, Token: d.token, AllowedHosts: cfg.AllowedHosts, AllowedOrigins: cfg.AllowedOrigins,
		Logger: d.log.With("component", "dashboard"),
	})
	if err != nil {
		return nil, err
	}
	f.Mount("GET /{$}", dsh)
	f.Mount("/dash/", dsh)
	return f, nil
}

// fillDemoPast fills the gap since the last run before serving, so that
// the first get_climate already has its extremes, trends and rain sums.
// The past is filled at one reading a minute whatever the live interval:
// the house is a pure function of time, so a second house with the same
// seed gives the same values.
// A bar goes to term when it is a terminal; nil is none.
func fillDemoPast(ctx context.Context, cfg config.Config, store *hub.Hub, log *slog.Logger, term io.Writer) error {
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
	bar := newProgress(term, "demo house: filling in a day of history", readings)
	bar.line = func(msg string) { log.Info(msg) }
	err := past.Backfill(ctx, &fillSink{Sink: store, bar: bar, from: from, to: now}, from, now)
	bar.done()
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

// logServing says where the hub serves: its URLs from this machine and,
// for a listener on every address, those of the machine's networks.
func logServing(log *slog.Logger, addr net.Addr, database string) {
	base := servedBase(addr)
	attrs := []any{"startup", time.Since(processStart).Round(time.Millisecond), "streamable_http", base + "/mcp", "sse", base + "/sse", "api", base + "/api/climate", "dashboard", base + "/", "database", database}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		if bases := networkBases(addr, addrs); len(bases) > 0 {
			attrs = append(attrs, "network", strings.Join(bases, "/mcp ")+"/mcp")
		}
	}
	log.Info("serving MCP", attrs...)
}
