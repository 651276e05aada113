package main

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/climated/climated/cmd/climated/internal/alerting"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/cmd/climated/internal/sources"
	"github.com/climated/climated/cmd/climated/internal/systemd"
)

// A reload (SIGHUP; systemctl reload climated) reads the configuration
// again and applies what can change while the hub runs: the sources (the
// sensors, the rain gauge, the demo house, MQTT: broker, subscriptions,
// publishing) and the log level. The new file is validated first: a file
// with an error changes nothing, and the log names FILE:LINE. The keys
// below need a restart; a reload that changes them says so and keeps
// their running values.
var restartKeys = []restartKey{
	key("listen", func(c *config.Config) *string { return &c.Listen }),
	key("database", func(c *config.Config) *string { return &c.Database }),
	key("timezone", func(c *config.Config) *string { return &c.Timezone }),
	key("retention", func(c *config.Config) *config.RetentionConfig { return &c.Retention }),
	key("token_file", func(c *config.Config) *string { return &c.TokenFile }),
	key("allowed_hosts", func(c *config.Config) *[]string { return &c.AllowedHosts }),
	key("allowed_origins", func(c *config.Config) *[]string { return &c.AllowedOrigins }),
	key("alerts", func(c *config.Config) *config.AlertsConfig { return &c.Alerts }),
	key("public_url", func(c *config.Config) *string { return &c.PublicURL }),
	// The sender and its cursor are made when the hub starts; the
	// secrets' files are read for every request, so a new password
	// needs no restart.
	key("remote_write", func(c *config.Config) *[]remotewrite.Config { return &c.RemoteWrite }),
	key("discovery", func(c *config.Config) **bool { return &c.Discovery }),
	// The daily summaries' sun and degree days are set when the history
	// opens.
	key("location", func(c *config.Config) **config.PlaceConfig { return &c.Place }),
	key("degree_day_base", func(c *config.Config) *float64 { return &c.DegreeDayBase }),
	// A station's upload path is served from the start: adding or
	// removing the section takes a restart (the running one is kept);
	// its zones reload.
	{"station", func(cur, next *config.Config) bool { return (cur.Station != nil) == (next.Station != nil) },
		func(cur, next *config.Config) { next.Station = cur.Station }},
}

// restartKey is a key a reload cannot apply: whether a new configuration
// changes it, and how the running value is kept in it.
type restartKey struct {
	name    string
	same    func(cur, next *config.Config) bool
	restore func(cur, next *config.Config)
}

// key is the restart key name of the field at: one definition gives the
// comparison and the restore, so that neither can be forgotten.
func key[T any](name string, at func(*config.Config) *T) restartKey {
	return restartKey{name,
		func(cur, next *config.Config) bool { return reflect.DeepEqual(*at(cur), *at(next)) },
		func(cur, next *config.Config) { *at(next) = *at(cur) }}
}

// reloader is what a reload needs of the running hub.
type reloader struct {
	log   *slog.Logger
	load  func() (config.Config, error) // reads and validates the configuration as at start-up
	level *slog.LevelVar                // the process's log level; nil leaves it alone
	// sources builds the sources of a new configuration, for the hub
	// the running ones feed.
	sources sources.Deps
	run     *sources.Running
	m       *metrics.Metrics
	alert   *alerting.Alerter // publishes the alerts beside a new MQTT client
	// simulated is set to whether the new sources run the demo house.
	simulated *simulatedFlag
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

// reload applies the configuration load returns over cur and returns the
// configuration now in force (cur itself when the new one is refused).
func (r *reloader) reload(ctx context.Context, cur config.Config) config.Config {
	systemd.Notify(r.log, daemon.SdNotifyReloading)
	defer systemd.Notify(r.log, daemon.SdNotifyReady)
	next, err := r.load()
	if err != nil {
		r.log.Error("reload refused: the running configuration stays", "err", err)
		return cur
	}
	var pending []string
	for _, k := range restartKeys {
		if !k.same(&cur, &next) {
			pending = append(pending, k.name)
			k.restore(&cur, &next)
		}
	}
	if len(pending) > 0 {
		r.log.Warn("reload: these keys take effect after a restart", "keys", pending)
	}
	set, err := sources.Build(ctx, next, r.sources)
	if err == nil && r.alert != nil {
		err = publishAlerts(r.alert, set, r.log)
	}
	if err != nil {
		r.log.Error("reload refused: the running configuration stays", "err", err)
		return cur
	}
	if r.level != nil {
		l, _ := config.ParseLevel(next.LogLevel) // validated by load
		r.level.Set(l)
	}
	t0 := time.Now()
	r.run.Stop()
	if set.House != nil {
		if err := sources.FillDemoPast(ctx, next, r.sources, nil); err != nil {
			r.log.Error("reload: demo house", "err", err)
		}
	}
	if err := sources.ForgetDemo(ctx, set, r.sources); err != nil {
		r.log.Error("reload", "err", err)
	}
	r.run.Start(ctx, set)
	if r.simulated != nil {
		r.simulated.set(set.Simulated)
	}
	watchMQTT(r.m, r.run, set)
	r.log.Info("configuration reloaded", "sources", set.Count(), "zones", set.Zones, "simulated", set.Simulated,
		"log_level", next.LogLevel, "took", time.Since(t0).Round(time.Millisecond))
	return next
}
