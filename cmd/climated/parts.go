package main

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/climated/climated/cmd/climated/internal/alerting"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/cmd/climated/internal/diskwatch"
	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/cmd/climated/internal/httpserve"
	"github.com/climated/climated/cmd/climated/internal/memtrim"
	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/cmd/climated/internal/sources"
	"github.com/climated/climated/cmd/climated/internal/stampguard"
	"github.com/climated/climated/cmd/climated/internal/systemd"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mcp"
	"github.com/climated/climated/mcp/transport"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/publish"
)

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
	// oauthSeam is serveEnv.oauth.
	oauthSeam func(*oauth.Options)
	// grantRecheck is serveEnv.grantRecheck.
	grantRecheck time.Duration
	// avahi is where the hub looks for Avahi (other places in tests).
	avahi avahiSeams
	// flush hears of the history's flushes; remote are the remote
	// write's senders.
	flush  *flushHook
	remote remotewrite.Senders
	// simulated says whether the demo house runs, as reloads change it.
	simulated *simulatedFlag
}

// simulatedNow is what the dashboard and the MCP server ask whether the
// demo house runs; nil (the start's set says) without d.simulated.
func (d hubDeps) simulatedNow() func() bool {
	if d.simulated == nil {
		return nil
	}
	return d.simulated.Load
}

// startServing starts the alerts' dispatcher, the sources, the MCP server
// and the HTTP front, as parts of the hub d.hub; it returns the sources'
// runner and the HTTP server's end.
func startServing(ctx context.Context, d hubDeps) (*sources.Running, <-chan error, error) {
	h, set, log := d.hub, d.sources, d.log
	h.Admit(stampguard.NewGuard(ctx, log, h).Admit)
	d.metrics.Count(h)
	run := sources.NewRunning(log, h, set)
	srv := mcp.New(ctx, h, &mcp.Options{
		Version: buildVersion(), Zones: set.Zones, Simulated: set.Simulated, SimulatedNow: d.simulatedNow(), Location: d.loc,
		Logger: log.With("component", "mcp"), Alerts: d.alert.MCP(), GrantRecheck: d.grantRecheck,
	})
	d.alert.SendTo(srv)
	if d.simulated != nil {
		d.simulated.onChange(srv.Resimulate)
	}
	if err := publishAlerts(d.alert, set, log); err != nil {
		srv.Close()
		return nil, nil, err
	}
	// Started before the sources, so that it stops after them and hands
	// on their last events.
	h.Start("alerts", d.alert.Run)
	d.metrics.Watch(h, srv.Sessions)
	// Before the sources run: the amounts' totals start from the history.
	if err := d.metrics.WatchReadings(ctx, h, mcp.DefaultStaleAfter, log); err != nil {
		srv.Close()
		return nil, nil, err
	}
	watchMQTT(d.metrics, run, set)
	var err error
	if d.remote, err = startRemoteWrite(ctx, d); err != nil {
		srv.Close()
		return nil, nil, err
	}
	h.Start("disk watch", func(ctx context.Context) error { d.disk.Run(ctx, diskwatch.Every); return nil })
	web, err := hubFront(d, srv, run)
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return run, startParts(ctx, d, run, srv, d.metrics.Instrument(web)), nil
}

// startParts starts the parts of the running hub, each owned by h, in an
// order that Close reverses: the sources, the HTTP server (so that it
// drains before the sources stop and the history closes), the LAN
// announcement, the watchdog and the memory trimmer. It returns the HTTP server's end.
func startParts(ctx context.Context, d hubDeps, run *sources.Running, srv *mcp.Server, web http.Handler) <-chan error {
	h, ln, log := d.hub, d.ln, d.log
	h.Start("sources", func(ctx context.Context) error {
		<-ctx.Done()
		run.Stop()
		return nil
	})
	httpErr := h.Start("http", httpserve.Server{Listener: ln, Handler: web, Closing: srv.Close, Log: log}.Run)
	run.Start(ctx, d.sources)
	startDiscovery(d)
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

// hubFront is the listener's handler: the MCP transports, /api/climate,
// /healthz and /metrics, behind the checks of who may call, and the
// dashboard at / and /dash/, which makes its own (a login for browsers).
func hubFront(d hubDeps, srv *mcp.Server, run *sources.Running) (http.Handler, error) {
	store, cfg := d.hub, d.cfg
	// The consent page's owner is the dashboard's login check; the
	// dashboard, made next, lists the apps the server signs in.
	var dsh *dash.Handler
	as, err := openOAuth(d, func(r *http.Request, given string) error { return dsh.CheckOwner(r, given) })
	if err != nil {
		return nil, err
	}
	dopts := &dash.Options{Simulated: d.sources.Simulated, SimulatedNow: d.simulatedNow(), Token: d.token, AllowedHosts: cfg.Hosts(), AllowedOrigins: cfg.AllowedOrigins,
		Proxied: cfg.PublicURL != "", Logger: d.log.With("component", "dashboard")}
	opts := &front.Options{Token: d.token, AllowedHosts: cfg.Hosts(), AllowedOrigins: cfg.AllowedOrigins, ToolScope: mcp.ToolScope, Logger: d.log.With("component", "http")}
	if as != nil { // only when set: a nil *oauth.Server would be a non-nil interface
		opts.OAuth, dopts.Apps = as, revoking{as, srv}
		srv.WatchGrants(as)
	}
	dsh, err = dash.New(dash.StoreSource{Store: store, ActiveAlerts: dashAlerts(d.alert.Engine()), Levels: d.alert.Engine().Levels}, dopts)
	if err != nil {
		return nil, err
	}
	routes := front.Routes{
		MCP:      srv.Handler(),
		Climate:  func() []byte { return store.Snapshot().JSON },
		Health:   []func() error{run.Healthy(store)}, // MCP refuses no client, so its sessions are no part of health (mcp/transport/share.go)
		Warnings: []func() []string{d.disk.Warnings},
		Metrics:  d.metrics.Handler(),
		Card:     &front.Card{Version: buildVersion(), PublicURL: cfg.PublicURL, Versions: transport.ProtocolVersions(), SSEVersions: transport.SSEProtocolVersions()},
	}
	if len(d.remote) > 0 {
		routes.Warnings = append(routes.Warnings, d.remote.Warnings)
		routes.Details = map[string]func() any{"remote_write": d.remote.Health}
	}
	f := front.New(routes, opts)
	for _, p := range dsh.Patterns() {
		f.Mount(p, dsh)
	}
	if as != nil {
		mountOAuth(f, as)
	}
	secret, err := stationSecret(cfg, d.log)
	if err != nil {
		return nil, err
	}
	mountStation(f, secret, run, d.log)
	return f, nil
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

// watchMQTT has m follow the MQTT state of run when set, the set that
// runs now, has MQTT.
func watchMQTT(m *metrics.Metrics, run *sources.Running, set *sources.Set) {
	m.WatchMQTT(run, set.MQTTConnected != nil, set.MQTTStats != nil)
}

// publishAlerts adds to set, when it publishes to MQTT, an alert
// publisher on its client, which runs with the set's sources (a reload
// builds a new set, and with it a new publisher).
func publishAlerts(a *alerting.Alerter, set *sources.Set, log *slog.Logger) error {
	var client *mqtt.Client
	var opts publish.Options
	if p := set.MQTTPublish; p != nil {
		client, opts = p.Client, p.Opts
	}
	pub, err := a.PublishOn(client, opts, log)
	if err != nil || pub == nil {
		return err
	}
	set.Runners = append(set.Runners, sources.Runner{Name: "mqtt alert publisher", Run: pub.Run})
	return nil
}

// revoking is the dashboard's Apps: a revoke there ends the client's
// open MCP sessions and streams at once, not at the next recheck.
type revoking struct {
	*oauth.Server
	srv *mcp.Server
}

func (r revoking) Revoke(ctx context.Context, id string) error {
	defer r.srv.RecheckGrants()
	return r.Server.Revoke(ctx, id)
}
