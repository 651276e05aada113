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
	"time"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/climated/climated/cmd/climated/internal/alerting"
	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/clock"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/cmd/climated/internal/diskwatch"
	"github.com/climated/climated/cmd/climated/internal/doctor"
	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/cmd/climated/internal/httpserve"
	"github.com/climated/climated/cmd/climated/internal/memtrim"
	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/cmd/climated/internal/sources"
	"github.com/climated/climated/cmd/climated/internal/systemd"
	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mcp"
)

// shutdownTimeout bounds the hub's close: its parts stopping and the
// history's last flush.
const shutdownTimeout = 10 * time.Second

func parseServe(args []string, stdout, stderr io.Writer) (config.Config, error) {
	cfg := config.Default()
	fs := cli.NewFlagSet("serve", stderr)
	configPath := fs.String("config", "", "YAML configuration `FILE`")
	listen := fs.String("listen", "", "HTTP address `HOST:PORT` (default "+config.DefaultListen+")")
	db := fs.String("db", "", "SQLite database `FILE` (default "+cfg.Database+")")
	demoFlag := fs.Bool("demo", false, "run the simulated demo house")
	if err := cli.ParseFlags(fs, args, stdout, stderr); err != nil {
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
	seams sources.Seams
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
	ln, err := httpserve.Listen(cfg.Listen)
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
	m := metrics.New()
	disk := diskwatch.New(cfg.Database, doctor.DefaultMinFree, log.With("component", "history"))
	store, err := openHub(ctx, cfg, loc, func(d time.Duration, n int, err error) {
		m.OnFlush(d, n, err)
		disk.Flushed(err)
	}, log)
	if err != nil {
		return err
	}
	// Close stops every part started below, the last first, and closes
	// the history after them all; on an early return it is this one.
	defer store.Close(context.Background())

	sd := sources.Deps{Log: log, Seams: env.seams, Hub: store, Version: buildVersion()}
	set, err := firstSources(ctx, cfg, sd, env.stderr)
	if err != nil {
		return err
	}

	alert, err := alerting.Open(ctx, alerting.Deps{Config: cfg.Alerts, Hub: store, Zones: set.Zones, Log: log.With("component", "alerts"), Version: sd.Version})
	if err != nil {
		return err
	}
	d := hubDeps{cfg: cfg, loc: loc, hub: store, sources: set, alert: alert, metrics: m, disk: disk, token: token, ln: ln, log: log}
	run, httpErr, err := startServing(ctx, d)
	if err != nil {
		alert.Close()
		return err
	}
	systemd.Notify(log, daemon.SdNotifyReady)

	logServing(log, ln.Addr(), store.Path())
	if env.ready != nil {
		env.ready(served{Addr: ln.Addr(), Hub: store, Zones: set.Zones})
	}

	rl := &reloader{log: log, load: env.load, level: env.level, sources: sd, run: run, m: m, alert: alert}
	runErr := rl.until(ctx, cfg, env, httpErr)
	systemd.Notify(log, daemon.SdNotifyStopping)
	return stopHub(store, runErr, log)
}

// firstSources builds the sources of cfg and, when the demo house runs,
// fills in its missed past before the hub serves (a bar on term).
func firstSources(ctx context.Context, cfg config.Config, d sources.Deps, term io.Writer) (*sources.Set, error) {
	set, err := sources.Build(ctx, cfg, d)
	if err != nil {
		return nil, err
	}
	if set.House != nil {
		if err := sources.FillDemoPast(ctx, cfg, d, term); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// hubDeps are the parts of a hub that serve makes before it starts
// serving, in the order it makes them, for startServing and hubFront to
// wire together.
type hubDeps struct {
	cfg     config.Config
	loc     *time.Location
	hub     *hub.Hub
	sources *sources.Set
	alert   *alerting.Alerter
	metrics *metrics.Metrics
	disk    *diskwatch.Watch
	token   string // the bearer token; "" on loopback
	ln      net.Listener
	log     *slog.Logger
}

// startServing starts the alerts' dispatcher, the sources, the MCP server
// and the HTTP front, as parts of the hub d.hub; it returns the sources'
// runner and the HTTP server's end.
func startServing(ctx context.Context, d hubDeps) (*sources.Running, <-chan error, error) {
	h, set, log := d.hub, d.sources, d.log
	run := sources.NewRunning(log, clock.NewGuard(ctx, d.metrics.Counting(h), log, h), set)
	srv := mcp.New(ctx, h, &mcp.Options{
		Version: buildVersion(), Zones: set.Zones, Simulated: set.Simulated, Location: d.loc,
		Logger: log.With("component", "mcp"), Alerts: d.alert.MCP(),
	})
	d.alert.SendTo(srv)
	if err := publishAlerts(d.alert, set, log); err != nil {
		srv.Close()
		return nil, nil, err
	}
	// Started before the sources, so that it stops after them and hands
	// on their last events.
	h.Start("alerts", d.alert.Run)
	d.metrics.Watch(h, srv.Sessions)
	watchMQTT(d.metrics, run, set)
	h.Start("disk watch", func(ctx context.Context) error { d.disk.Run(ctx, diskwatch.Every); return nil })
	web, err := hubFront(d, srv, run)
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return run, startParts(ctx, d, run, srv, d.metrics.Instrument(web)), nil
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
		RawRetention: time.Duration(cfg.Retention.Raw), RollupRetention: time.Duration(cfg.Retention.FiveMinute)})
	if err != nil {
		return nil, err
	}
	log.Info("history open", "database", h.Path())
	return h, nil
}

// bearerToken is the token every request needs when the hub listens beyond
// loopback, read or created; "" on loopback.
func bearerToken(cfg config.Config, log *slog.Logger) (string, error) {
	if !cfg.NeedsToken() {
		return "", nil
	}
	secret, err := token.LoadOrCreate(cfg.TokenPath())
	if err != nil {
		return "", err
	}
	log.Info("listening beyond loopback: every request needs the bearer token", "token_file", cfg.TokenPath(), "print_it_with", "climated token")
	return secret, nil
}

// startParts starts the parts of the running hub, each owned by h, in an
// order that Close reverses: the sources, the HTTP server (so that it
// drains before the sources stop and the history closes), the watchdog
// and the memory trimmer. It returns the HTTP server's end.
func startParts(ctx context.Context, d hubDeps, run *sources.Running, srv *mcp.Server, web http.Handler) <-chan error {
	h, ln, log := d.hub, d.ln, d.log
	h.Start("sources", func(ctx context.Context) error {
		<-ctx.Done()
		run.Stop()
		return nil
	})
	httpErr := h.Start("http", httpserve.Server{Listener: ln, Handler: web, Closing: srv.Close, Log: log}.Run)
	run.Start(ctx, d.sources)
	h.Start("watchdog", func(ctx context.Context) error {
		systemd.Watchdog(ctx, log, systemd.Liveness{Ping: h.Ping, Addr: ln.Addr()})
		return nil
	})
	h.Start("memory trim", func(ctx context.Context) error {
		memtrim.Run(ctx, memtrim.Every)
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

// hubFront is the listener's handler: the MCP transports, /api/climate,
// /healthz and /metrics, behind the checks of who may call, and the
// dashboard at / and /dash/, which makes its own (a login for browsers).
func hubFront(d hubDeps, srv *mcp.Server, run *sources.Running) (http.Handler, error) {
	store, cfg := d.hub, d.cfg
	f := front.New(front.Routes{
		MCP:      srv.Handler(),
		Climate:  func() []byte { return store.Snapshot().JSON },
		Health:   []func() error{run.Healthy(store)}, // MCP refuses no client, so its sessions are no part of health (mcp/share.go)
		Warnings: []func() []string{d.disk.Warnings},
		Metrics:  d.metrics.Handler(),
	}, &front.Options{Token: d.token, AllowedHosts: cfg.AllowedHosts, AllowedOrigins: cfg.AllowedOrigins, Logger: d.log.With("component", "http")})
	dsh, err := dash.New(dash.StoreSource{Store: store, ActiveAlerts: dashAlerts(d.alert.Engine()), Levels: d.alert.Engine().Levels}, &dash.Options{
		Simulated: d.sources.Simulated, Token: d.token, AllowedHosts: cfg.AllowedHosts, AllowedOrigins: cfg.AllowedOrigins,
		Logger: d.log.With("component", "dashboard"),
	})
	if err != nil {
		return nil, err
	}
	f.Mount("GET /{$}", dsh)
	f.Mount("/dash/", dsh)
	return f, nil
}

// logServing says where the hub serves: its URLs from this machine and,
// for a listener on every address, those of the machine's networks.
func logServing(log *slog.Logger, addr net.Addr, database string) {
	base := httpserve.BaseURL(addr)
	attrs := []any{"startup", time.Since(processStart).Round(time.Millisecond), "streamable_http", base + "/mcp", "sse", base + "/sse", "api", base + "/api/climate", "dashboard", base + "/", "database", database}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		if bases := httpserve.NetworkURLs(addr, addrs); len(bases) > 0 {
			attrs = append(attrs, "network", strings.Join(bases, "/mcp ")+"/mcp")
		}
	}
	log.Info("serving MCP", attrs...)
}

// dashAlerts lists the alerts of e that are on, for the dashboard: each
// with its rule in words.
func dashAlerts(e *alerts.Engine) func() []dash.Alert {
	return func() []dash.Alert { return activeAlerts(e) }
}

func activeAlerts(e *alerts.Engine) []dash.Alert {
	active := e.Active()
	if len(active) == 0 {
		return nil
	}
	words := map[string]string{}
	for _, r := range e.Rules() {
		words[r.ID] = r.Describe()
	}
	out := make([]dash.Alert, 0, len(active))
	for _, st := range active {
		out = append(out, dash.Alert{Zone: st.Zone, Rule: st.Rule, Text: words[st.Rule], Since: st.FiredAt.Unix(), Value: st.Value})
	}
	return out
}
