package main

import (
	"context"
	"log/slog"
	"reflect"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/climated/climated/cmd/climated/internal/alerting"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/metrics"
	"github.com/climated/climated/cmd/climated/internal/sources"
	"github.com/climated/climated/cmd/climated/internal/systemd"
	"github.com/climated/climated/mqtt"
)

// A reload (SIGHUP; systemctl reload climated) reads the configuration
// again and applies what can change while the hub runs: the sources (the
// sensors, the rain gauge, the demo house, MQTT: broker, subscriptions,
// publishing) and the log level. The new file is validated first: a file
// with an error changes nothing, and the log names FILE:LINE. The keys
// below need a restart; a reload that changes them says so and keeps
// their running values.
var restartKeys = []struct {
	key string
	get func(*config.Config) any
}{
	{"listen", func(c *config.Config) any { return c.Listen }},
	{"database", func(c *config.Config) any { return c.Database }},
	{"timezone", func(c *config.Config) any { return c.Timezone }},
	{"retention", func(c *config.Config) any { return c.Retention }},
	{"token_file", func(c *config.Config) any { return c.TokenFile }},
	{"allowed_hosts", func(c *config.Config) any { return c.AllowedHosts }},
	{"allowed_origins", func(c *config.Config) any { return c.AllowedOrigins }},
	{"alerts", func(c *config.Config) any { return c.Alerts }},
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
		if !reflect.DeepEqual(k.get(&cur), k.get(&next)) {
			pending = append(pending, k.key)
		}
	}
	if len(pending) > 0 {
		r.log.Warn("reload: these keys take effect after a restart", "keys", pending)
		next.Listen, next.Database, next.Timezone, next.Retention = cur.Listen, cur.Database, cur.Timezone, cur.Retention
		next.TokenFile, next.AllowedHosts, next.AllowedOrigins = cur.TokenFile, cur.AllowedHosts, cur.AllowedOrigins
		next.Alerts = cur.Alerts
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
	r.run.Start(ctx, set)
	watchMQTT(r.m, r.run, set)
	r.log.Info("configuration reloaded", "sources", len(set.Sources), "zones", set.Zones, "simulated", set.Simulated,
		"log_level", next.LogLevel, "took", time.Since(t0).Round(time.Millisecond))
	return next
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
	var opts mqtt.PublishOptions
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
