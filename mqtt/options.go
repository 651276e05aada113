package mqtt

import (
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/climated/climated/sensors/field"
)

// Defaults for Options fields left zero.
const (
	DefaultKeepAlive      = 30 * time.Second
	DefaultConnectTimeout = 10 * time.Second
	// DefaultReconnectMax caps the back-off between connection attempts,
	// which starts at a second and doubles.
	DefaultReconnectMax = 2 * time.Minute
	DefaultPrefix       = "climated"
)

// Options configure the connection to the broker. Decoded from YAML, they
// are checked once by Validate; NewClient applies the defaults.
type Options struct {
	// Broker is the broker's URL: tcp:// or mqtt:// (port 1883 by
	// default), ssl://, tls:// or mqtts:// (8883), ws:// or wss:// with the
	// broker's WebSocket path.
	Broker string `yaml:"broker"`
	// ClientID identifies the hub to the broker; two clients with the same
	// id push each other off, so hubs sharing a broker need distinct ones.
	// Empty means the id kept in SessionFile (made once: "climated-" and
	// 12 random hex digits, so two hubs never pick the same), or without a
	// SessionFile a random id per start and a clean session.
	ClientID string `yaml:"client_id"`
	// SessionFile keeps what lets the hub resume its MQTT session after a
	// restart: the client id, and a journal of the latest messages
	// recorded, so that one the broker delivers again is not recorded
	// twice. climated keeps it beside the database (<database>.mqtt).
	// With a stable client id (this file, or ClientID) the session is
	// persistent: the broker queues QoS 1 messages while the hub is down
	// (mosquitto: max_queued_messages, 1000 by default, beyond which it
	// drops them).
	SessionFile string `yaml:"session_file"`
	Username    string `yaml:"username"`
	// Password, or PasswordEnv, the name of an environment variable that
	// holds it (so that it stays out of the configuration file). Neither
	// is ever logged.
	Password    string `yaml:"password"`
	PasswordEnv string `yaml:"password_env"`
	// CAFile is a PEM bundle of the authorities to trust instead of the
	// system's; CertFile and KeyFile a client certificate, both or none.
	CAFile   string `yaml:"ca_file"`
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
	// KeepAlive is the MQTT keep-alive interval, whole seconds from 1s.
	KeepAlive      time.Duration `yaml:"keep_alive"`
	ConnectTimeout time.Duration `yaml:"connect_timeout"`
	ReconnectMax   time.Duration `yaml:"reconnect_max"`
	// Prefix is where this hub publishes: <prefix>/status and the zone
	// states <prefix>/<zone>/state. Hubs sharing a broker need distinct
	// prefixes, e.g. climated/upstairs.
	Prefix string `yaml:"prefix"`
	// AvailabilityTopic carries the retained online/offline of the hub
	// (offline also as the last will); empty means <prefix>/status.
	AvailabilityTopic string `yaml:"availability_topic"`

	// LookupEnv resolves PasswordEnv; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool) `yaml:"-"`
	// Logger receives connection events; nil discards.
	Logger *slog.Logger `yaml:"-"`
}

// Validate reports the first thing wrong with o, naming its YAML field.
func (o *Options) Validate() error {
	u, err := o.brokerURL()
	if err != nil {
		return err
	}
	if isTLS(u.Scheme) {
		if _, err := o.tlsConfig(u); err != nil {
			return err
		}
	} else if o.CAFile != "" || o.CertFile != "" || o.KeyFile != "" {
		return fmt.Errorf("ca_file, cert_file, key_file: broker %q is not a TLS URL (ssl://, tls://, mqtts://, wss://)", o.Broker)
	}
	if _, err := o.password(); err != nil {
		return err
	}
	switch k := o.KeepAlive; {
	case k < 0, k > 0 && k < time.Second, k > 65535*time.Second:
		return field.Errorf("keep_alive", "keep_alive %s: want 1s to 18h12m15s (whole seconds; 0 means %s)", k, DefaultKeepAlive)
	}
	if o.ConnectTimeout < 0 {
		return field.Errorf("connect_timeout", "connect_timeout %s: must not be negative", o.ConnectTimeout)
	}
	if o.ReconnectMax < 0 {
		return field.Errorf("reconnect_max", "reconnect_max %s: must not be negative", o.ReconnectMax)
	}
	if o.Prefix != "" {
		if err := ValidTopic(o.Prefix); err != nil {
			return field.Errorf("prefix", "prefix %q: %w", o.Prefix, err)
		}
	}
	if o.AvailabilityTopic != "" {
		if err := ValidTopic(o.AvailabilityTopic); err != nil {
			return field.Errorf("availability_topic", "availability_topic %q: %w", o.AvailabilityTopic, err)
		}
	}
	return nil
}

// withDefaults returns o with zero fields set to their defaults.
func (o Options) withDefaults() Options {
	if o.ClientID == "" {
		b := make([]byte, 4)
		rand.Read(b)
		o.ClientID = "climated-" + hex.EncodeToString(b)
	}
	if o.KeepAlive == 0 {
		o.KeepAlive = DefaultKeepAlive
	}
	if o.ConnectTimeout == 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.ReconnectMax == 0 {
		o.ReconnectMax = DefaultReconnectMax
	}
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if o.AvailabilityTopic == "" {
		o.AvailabilityTopic = o.Prefix + "/status"
	}
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	return o
}

// LogValue shows the connection without its secrets.
func (o Options) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("broker", o.Broker),
		slog.String("client_id", o.ClientID),
		slog.String("username", o.Username),
		slog.Bool("password", o.Password != "" || o.PasswordEnv != ""),
		slog.Bool("client_certificate", o.CertFile != ""),
	)
}

func isTLS(scheme string) bool {
	switch scheme {
	case "ssl", "tls", "mqtts", "wss":
		return true
	}
	return false
}

// brokerURL parses Broker and adds the scheme's default port.
func (o *Options) brokerURL() (*url.URL, error) {
	if o.Broker == "" {
		return nil, field.Errorf("broker", "broker: missing, e.g. tcp://127.0.0.1:1883")
	}
	u, err := url.Parse(o.Broker)
	if err != nil {
		return nil, field.Errorf("broker", "broker %q: %w", o.Broker, err)
	}
	port := ""
	switch u.Scheme {
	case "tcp", "mqtt":
		port = "1883"
	case "ssl", "tls", "mqtts":
		port = "8883"
	case "ws", "wss":
	default:
		return nil, field.Errorf("broker", "broker %q: scheme %q: want tcp, mqtt, ssl, tls, mqtts, ws or wss", o.Broker, u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, field.Errorf("broker", "broker %q: no host", o.Broker)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, field.Errorf("broker", "broker %q: port %q is not a number from 1 to 65535", o.Broker, p)
		}
	} else if port != "" {
		u.Host = net.JoinHostPort(u.Hostname(), port)
	}
	if u.User != nil {
		return nil, field.Errorf("broker", "broker %q: put the user name and password in username and password_env, not in the URL", redactURL(u))
	}
	return u, nil
}

func redactURL(u *url.URL) string {
	v := *u
	v.User = nil
	return v.String()
}

// password resolves Password or PasswordEnv.
func (o *Options) password() (string, error) {
	if o.PasswordEnv == "" {
		return o.Password, nil
	}
	if o.Password != "" {
		return "", errors.New("password, password_env: set one, not both")
	}
	lookup := o.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	p, ok := lookup(o.PasswordEnv)
	if !ok {
		return "", field.Errorf("password_env", "password_env: environment variable %s is not set", o.PasswordEnv)
	}
	return p, nil
}

// tlsConfig reads the certificate files for a TLS broker URL.
func (o *Options) tlsConfig(u *url.URL) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: u.Hostname()}
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, field.Errorf("ca_file", "ca_file: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, field.Errorf("ca_file", "ca_file %s: no PEM certificate in it", o.CAFile)
		}
	}
	if (o.CertFile == "") != (o.KeyFile == "") {
		return nil, errors.New("cert_file, key_file: give both or neither")
	}
	if o.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("cert_file, key_file: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}
