package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/climated/climated/cmd/climated/internal/alerting"
	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/diskwatch"
	"github.com/climated/climated/cmd/climated/internal/doctor"
	"github.com/climated/climated/cmd/climated/internal/httpserve"
	"github.com/climated/climated/cmd/climated/internal/hubfile"
	"github.com/climated/climated/cmd/climated/internal/memtrim"
	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/cmd/climated/internal/sources"
	"github.com/climated/climated/cmd/climated/internal/systemd"
	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mcp"
)

// shutdownTimeout bounds the hub's close: its parts stopping and the
// history's last flush.
const shutdownTimeout = 10 * time.Second

func parseServe(args []string, stdout, stderr io.Writer) (config.Config, error) {
	cfg := config.Default()
	fs := cli.NewFlagSet("serve", stderr)
	configPath := fs.String("config", "", "YAML configuration `FILE` (default: $CLIMATED_CONFIG, ~/.config/climated/climated.yaml, "+config.Installed.Config+", the first found)")
	listen := fs.String("listen", "", "HTTP address `HOST:PORT` (default "+config.DefaultListen+")")
	db := fs.String("db", "", "SQLite database `FILE` (default "+cfg.Database+")")
	demoFlag := fs.Bool("demo", false, "run the simulated demo house")
	if err := cli.ParseFlags(fs, args, stdout, stderr); err != nil {
		return cfg, err
	}
	found := config.Find(*configPath, os.Getenv)
	cfg, err := config.Load(found.Path, cfg, func(c *config.Config) {
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
	if err != nil && found.Path != "" {
		return cfg, config.ExplainAccess(found.Path, "climated serve "+strings.Join(args, " "), err)
	}
	cfg.From = found
	return cfg, err
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
	// oauth adjusts the authorization server's options once the
	// configuration has set them: the tests' way to a Client ID Metadata
	// Document on loopback and a clock of their own, which no key of the
	// configuration offers; nil changes nothing.
	oauth func(*oauth.Options)
	// grantRecheck is how often the MCP server checks the OAuth grants
	// behind open sessions and streams (transport.DefaultGrantRecheck when 0).
	grantRecheck time.Duration
	// avahi is where the hub looks for Avahi, for tests.
	avahi avahiSeams
}

// serve runs the hub until ctx ends, then shuts down in reverse order
// (hub.Hub.Close): the watchdog stops, the HTTP server drains, the sources
// stop, and the history is flushed and closed last.
// cfg comes validated, from loadConfig.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, env serveEnv) error {
	loc, _ := cfg.Location()
	logConfigFile(log, cfg.From)
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
	flush := &flushHook{}
	store, err := openHub(ctx, cfg, loc, flush.after(m, disk), log)
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
	d := hubDeps{cfg: cfg, loc: loc, hub: store, sources: set, alert: alert, metrics: m, disk: disk, token: token, ln: ln, log: log, oauthSeam: env.oauth, grantRecheck: env.grantRecheck, avahi: env.avahi, flush: flush, simulated: newSimulatedFlag(set.Simulated)}
	run, httpErr, err := startServing(ctx, d)
	if err != nil {
		alert.Close()
		return err
	}
	systemd.Notify(log, daemon.SdNotifyReady)

	defer announce(cfg, ln.Addr(), store.Path(), log)()
	if env.ready != nil {
		env.ready(served{Addr: ln.Addr(), Hub: store, Zones: set.Zones})
	}
	// Once the hub serves, not before: giving memory back stops the world
	// for a collection, and start-up to serving has a budget too.
	memtrim.FreeStartup()

	rl := &reloader{log: log, load: env.load, level: env.level, sources: sd, run: run, m: m, alert: alert, simulated: d.simulated}
	runErr := rl.until(ctx, cfg, env, httpErr)
	systemd.Notify(log, daemon.SdNotifyStopping)
	return stopHub(store, runErr, log)
}

// announce says where the hub serves: in the log, and beside its
// database for the commands run beside it (hubfile); the function it
// returns removes the latter.
func announce(cfg config.Config, addr net.Addr, database string, log *slog.Logger) func() {
	logServing(log, addr, database)
	// The listen address as configured, with the port it got (:0 picks
	// one): the form the commands compare with their configuration's.
	host, _, _ := net.SplitHostPort(cfg.Listen)
	_, port, _ := net.SplitHostPort(addr.String())
	remove, err := hubfile.Write(hubfile.Info{PID: os.Getpid(), URL: httpserve.BaseURL(addr), Listen: net.JoinHostPort(host, port), Token: cfg.NeedsToken(),
		PublicURL: cfg.PublicURL, Config: cfg.From.Path, Database: cfg.Database})
	if err != nil {
		log.Warn("the hub cannot tell local commands where it serves; they go by the configuration", "err", err)
		return func() {}
	}
	return remove
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
	if err := sources.ForgetDemo(ctx, set, d); err != nil {
		return nil, err
	}
	return set, nil
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
		FlushInterval: time.Duration(cfg.CommitInterval), Outdoors: cfg.Outdoors()})
	if err != nil {
		return nil, err
	}
	log.Info("history open", "database", h.Path(), "commit_interval", time.Duration(cfg.CommitInterval))
	return h, nil
}

// logConfigFile says which configuration file the hub read, or where it
// looked when it found none, so that a user knows which file to edit.
func logConfigFile(log *slog.Logger, from config.Found) {
	if from.Path == "" && len(from.Looked) == 0 {
		return // a configuration made in a test, not read
	}
	if from.Path == "" {
		log.Info("no configuration file: the defaults", "looked_for", strings.Join(from.Looked, " "))
		return
	}
	log.Info("configuration", "file", from.Path, "found_by", from.By)
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
	why := "listening beyond loopback: every request needs the bearer token"
	if !cfg.ListensBeyondLoopback() {
		// A tunnel or proxy on this machine passes the world's requests on
		// from loopback: no other machine reaches the listener itself.
		why = "public_url set: requests through it come from loopback, so every request needs the bearer token (or an assistant's OAuth sign-in)"
	}
	log.Info(why, "token_file", cfg.TokenPath(), "print_it_with", "climated token")
	return secret, nil
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
