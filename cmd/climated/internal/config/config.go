package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	webhook "github.com/climated/climated/history/alerts/notify"
	"github.com/climated/climated/sensors/field"
	"github.com/climated/climated/sensors/hw"
	"github.com/climated/climated/sensors/raingauge"
	"github.com/climated/climated/sensors/station"
	"github.com/climated/climated/sensors/weather"
)

// DefaultListen is loopback on a port that common home-hub software leaves
// free (Home Assistant 8123, MQTT 1883, node_exporter 9100, the usual 8080).
const DefaultListen = "127.0.0.1:8473"

// DefaultCommitInterval is commit_interval's default: at one reading a
// minute per sensor, a crash loses at most one reading of each.
const DefaultCommitInterval = time.Minute

// Config is the hub's configuration: defaults, then the YAML file, then flags.
type Config struct {
	// From is where the file came from (config.Find); not a key.
	From     Found      `yaml:"-"`
	Listen   string     `yaml:"listen"`   // HOST:PORT of the HTTP server
	Database string     `yaml:"database"` // SQLite file
	Timezone string     `yaml:"timezone"` // IANA name for "since local midnight"; empty means the system's
	LogLevel string     `yaml:"log_level"`
	Demo     DemoConfig `yaml:"demo"`
	// Where the house is: the sun's times in the outdoor zones' daily
	// summaries (NOAA's calculation). Unset: none.
	Place *PlaceConfig `yaml:"location"`
	// The base of the heating and cooling degree days in the outdoor
	// zones' daily summaries, °C.
	DegreeDayBase float64 `yaml:"degree_day_base"`

	// How long the history keeps raw readings and 5-minute buckets;
	// hourly and daily buckets are kept for ever.
	Retention RetentionConfig `yaml:"retention"`
	// How long a reading may wait in memory before it is committed to
	// the database: what a crash can lose (a power cut, up to the
	// kernel's write-back delay more), traded for what the SD card is
	// spared (every commit costs ~20 KB whatever it holds).
	CommitInterval Duration `yaml:"commit_interval"`

	// The house's own sensors: altitude, bus, interval, stale_after,
	// sensors and wifi at the top level of the file (see hw.Config).
	HW        hw.Config         `yaml:",inline"`
	RainGauge *raingauge.Config `yaml:"rain_gauge"` // a tipping-bucket gauge on a GPIO pin
	MQTT      *MQTT             `yaml:"mqtt"`       // devices' readings from a broker, and publishing to it
	Station   *station.Config   `yaml:"station"`    // a weather station that uploads to the hub (Ecowitt, Weather Underground)
	Alerts    AlertsConfig      `yaml:"alerts"`     // the house rules and a webhook to a phone
	// RemoteWrite pushes the readings to Prometheus-compatible stores,
	// one entry each (docs/prometheus.md, "Push instead of scrape").
	RemoteWrite []remotewrite.Config `yaml:"remote_write"`
	File        string               `yaml:"-"` // the file it was read from, if any

	// Who may call the hub. Listening on a non-loopback address requires
	// the bearer token kept in TokenFile.
	TokenFile      string   `yaml:"token_file"`      // default: "token" beside the database
	AllowedHosts   []string `yaml:"allowed_hosts"`   // Host names clients may use besides loopback ones
	AllowedOrigins []string `yaml:"allowed_origins"` // browser origins allowed to call the hub
	// The https URL the world reaches the hub at (a Tailscale Funnel or
	// Cloudflare Tunnel in front of it): the OAuth issuer, with the MCP
	// endpoint at PublicURL/mcp. Set, assistants may sign in with OAuth
	// (docs/oauth.md) and the hub needs its token wherever it listens.
	PublicURL string `yaml:"public_url"`
	// Discovery announces the hub on the LAN (DNS-SD over mDNS,
	// docs/discovery.md) when it listens beyond loopback; unset means
	// true, false never announces. On loopback nothing is announced
	// whatever it says (the start-up log says so): nothing on the LAN
	// could reach the hub.
	Discovery *bool `yaml:"discovery"`
}

// AlertsConfig is the alerts: section: the house rules (each on by
// default) and a webhook to a phone (ntfy or Gotify).
type AlertsConfig struct {
	House   alerts.HouseConfig `yaml:"house"`
	Webhook *webhook.Config    `yaml:"webhook"`
}

// PlaceConfig is the location: section, in degrees: latitude north and
// longitude east, south and west negative. Both are needed.
type PlaceConfig struct {
	Latitude  *float64 `yaml:"latitude"`
	Longitude *float64 `yaml:"longitude"`
}

// RetentionConfig sets the history's tiers, as durations with days and
// weeks allowed ("30d", "104w").
type RetentionConfig struct {
	Raw        Duration `yaml:"raw"`         // default 30d
	FiveMinute Duration `yaml:"five_minute"` // default 730d
}

// Duration is a time.Duration written as Go writes them or in days and
// weeks ("90m", "30d", "104w").
type Duration time.Duration

// UnmarshalYAML reads a duration, saying what was wrong.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := history.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*d = Duration(v)
	return nil
}

// DemoConfig configures the simulated house.
type DemoConfig struct {
	// Enabled: true runs the demo house beside real sensors, false never
	// runs it (not even without any sensor), unset runs it only when no
	// sensor is configured or found.
	Enabled  *bool         `yaml:"enabled"`
	Seed     int64         `yaml:"seed"`     // same seed, same house
	Interval time.Duration `yaml:"interval"` // reading period
}

// Default is the configuration before any file or flag.
func Default() Config {
	return Config{
		Listen:         DefaultListen,
		Database:       defaultDatabase(),
		LogLevel:       "info",
		Demo:           DemoConfig{Seed: 1, Interval: time.Minute},
		DegreeDayBase:  weather.DefaultDegreeDayBase,
		Retention:      RetentionConfig{Raw: Duration(history.DefaultRawRetention), FiveMinute: Duration(history.DefaultRollupRetention)},
		CommitInterval: Duration(DefaultCommitInterval),
		Alerts:         AlertsConfig{House: alerts.DefaultHouse()},
	}
}

// defaultDatabase is $STATE_DIRECTORY under systemd, else the per-user state
// directory ($XDG_STATE_HOME or ~/.local/state).
func defaultDatabase() string {
	if d := os.Getenv("STATE_DIRECTORY"); d != "" {
		// systemd may list several directories, separated by colons.
		d, _, _ = strings.Cut(d, ":")
		return filepath.Join(d, "climated.db")
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "climated", "climated.db")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "climated", "climated.db")
	}
	return "climated.db"
}

// validate checks the assembled configuration, once, in Load; its
// errors are *field.Error (several joined), each naming its key.
func (c *Config) validate() error {
	_, port, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return field.Errorf("listen", "listen %q: want HOST:PORT, e.g. %s: %w", c.Listen, DefaultListen, err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return field.Errorf("listen", "listen %q: port %q is not a number from 0 to 65535", c.Listen, port)
	}
	if c.Database == "" {
		return field.Errorf("database", "database: empty path")
	}
	if _, err := c.Location(); err != nil {
		return field.Errorf("timezone", "%w", err)
	}
	if _, err := ParseLevel(c.LogLevel); err != nil {
		return field.Errorf("log_level", "%w", err)
	}
	if len(c.HW.Sensors) > 0 {
		if err := c.HW.Validate(); err != nil {
			return err
		}
	}
	if c.MQTT != nil {
		if err := c.MQTT.Validate(); err != nil {
			return field.Wrap("mqtt", ": ", err)
		}
	}
	if c.RainGauge != nil {
		if err := c.RainGauge.Validate(); err != nil {
			return field.Wrap("rain_gauge", ": ", err)
		}
	}
	if err := c.validateHistory(); err != nil {
		return err
	}
	if err := c.validateOutdoors(); err != nil {
		return err
	}
	if err := checkPublicURL(c.PublicURL); err != nil {
		return err
	}
	if err := c.validateRemoteWrite(); err != nil {
		return err
	}
	if c.Demo.Interval < time.Second {
		return field.Errorf("demo.interval", "demo.interval %s: must be at least 1s", c.Demo.Interval)
	}
	return c.Alerts.validate()
}

// validateRemoteWrite checks each store of remote_write, and that none
// is there twice (a store's cursor is kept by its URL).
func (c *Config) validateRemoteWrite() error {
	seen := map[string]bool{}
	for i, rw := range c.RemoteWrite {
		at := fmt.Sprintf("remote_write[%d]", i)
		if err := rw.Validate(); err != nil {
			return field.Wrap(at, ".", err) // remote_write[0].url
		}
		if seen[rw.URL] {
			return field.Errorf(at+".url", "%s.url: %s is in remote_write twice", at, rw.URL)
		}
		seen[rw.URL] = true
	}
	return nil
}

// validateHistory checks the history's retention and commit interval.
func (c *Config) validateHistory() error {
	if r := time.Duration(c.Retention.Raw); r < 24*time.Hour {
		return field.Errorf("retention.raw", "retention.raw %s: keep raw readings at least a day (1d)", r)
	}
	if f := time.Duration(c.Retention.FiveMinute); f < time.Duration(c.Retention.Raw) {
		return field.Errorf("retention.five_minute", "retention.five_minute %s: keep 5-minute buckets at least as long as raw readings (%s)", f, time.Duration(c.Retention.Raw))
	}
	if ci := time.Duration(c.CommitInterval); ci < time.Second || ci > time.Hour {
		return field.Errorf("commit_interval", "commit_interval %s: want 1s to 1h (a crash loses at most that much of the readings)", ci)
	}
	return nil
}

// validate checks the house rules' thresholds and the webhook; the
// outdoor zones are checked against the zones when the hub starts.
func (a AlertsConfig) validate() error {
	house := a.House
	house.Outdoor = nil
	if err := house.Validate(nil); err != nil {
		return err // a *field.Error at the rule's key: alerts.house.co2.threshold
	}
	if a.Webhook != nil {
		if err := a.Webhook.Validate(); err != nil {
			return err // a *field.Error at the key: alerts.webhook.topic
		}
	}
	return nil
}

// Location is the time zone of "since local midnight": timezone, else
// the system's.
func (c *Config) Location() (*time.Location, error) {
	if c.Timezone == "" {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(c.Timezone)
	if err != nil {
		return nil, fmt.Errorf("timezone %q: %w", c.Timezone, err)
	}
	return loc, nil
}

// ParseLevel reads log_level: debug, info, warn or error.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("log_level %q: want debug, info, warn or error", s)
	}
	return l, nil
}

// TokenPath is where the bearer token lives: token_file in the
// configuration, else beside the database (the state directory).
func (c *Config) TokenPath() string {
	if c.TokenFile != "" {
		return c.TokenFile
	}
	return filepath.Join(filepath.Dir(c.Database), "token")
}

// StationSecretPath is the file of the unguessable part of the path a
// weather station uploads to (station.Path): beside the token.
func (c *Config) StationSecretPath() string {
	return filepath.Join(filepath.Dir(c.TokenPath()), "station_secret")
}

// NeedsToken: a hub reachable from other machines answers only requests
// that carry its token.
func (c *Config) NeedsToken() bool {
	return c.ListensBeyondLoopback() || c.PublicURL != ""
}

// ListensBeyondLoopback reports whether other machines can reach the
// listener: an address other than loopback, or every address.
func (c *Config) ListensBeyondLoopback() bool {
	host, _, _ := net.SplitHostPort(c.Listen)
	return !front.IsLoopback(host)
}

// Announces reports whether the hub announces itself on the LAN:
// discovery not false, and a listener other machines reach.
func (c *Config) Announces() bool {
	return (c.Discovery == nil || *c.Discovery) && c.ListensBeyondLoopback()
}

// Hosts are the Host names the hub accepts besides loopback ones: the
// allowed_hosts, and public_url's name, which a tunnel in front of the hub
// passes on as the Host (Tailscale Funnel and Cloudflare Tunnel do). With
// no allowed_hosts any name is accepted with the token, and Hosts is empty.
func (c *Config) Hosts() []string {
	if len(c.AllowedHosts) == 0 || c.PublicURL == "" {
		return c.AllowedHosts
	}
	u, err := url.Parse(c.PublicURL)
	if err != nil || slices.Contains(c.AllowedHosts, u.Hostname()) {
		return c.AllowedHosts
	}
	return append(slices.Clip(c.AllowedHosts), u.Hostname())
}

// checkPublicURL accepts "" or an absolute https URL (http only on a
// loopback host, for tests) without a path, query or fragment: the issuer
// of OAuth must be exactly what clients see.
func checkPublicURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "":
		return field.Errorf("public_url", "public_url %q: want an absolute URL such as https://hub.example.ts.net", s)
	case u.Scheme != "https" && !(u.Scheme == "http" && front.IsLoopback(u.Hostname())):
		return field.Errorf("public_url", "public_url %q: want https (assistants sign in only over https)", s)
	case u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return field.Errorf("public_url", "public_url %q: want the scheme and host only, without a path, query or user", s)
	}
	return nil
}
