package remotewrite

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/climated/climated/sensors/field"
)

// Defaults of Config; fields left zero take these.
const (
	DefaultBatchSize  = 2000             // samples per request, as Prometheus' own sender
	DefaultInterval   = time.Minute      // a look for new readings when no commit announced any
	DefaultMaxRate    = 10_000           // samples a second while catching up
	DefaultTimeout    = 30 * time.Second // of one request
	DefaultMaxBackoff = time.Minute      // between tries while the store fails
	// DefaultSettle is added to the history's commit interval for the
	// default delay: a reading is sent once it is that old, by when
	// it is committed.
	DefaultSettle = 30 * time.Second
	maxBatchSize  = 50_000
)

// Config is the remote_write: section of the configuration.
type Config struct {
	URL       string     `yaml:"url"`
	BasicAuth *BasicAuth `yaml:"basic_auth"`
	// BearerTokenFile holds the token sent as "Authorization: Bearer".
	BearerTokenFile string    `yaml:"bearer_token_file"`
	TLS             TLSConfig `yaml:"tls"`
	// Labels are added to every series (job and instance by default, as a
	// scrape would add them); a label set to "" is left out.
	Labels    map[string]string `yaml:"labels"`
	BatchSize int               `yaml:"batch_size"` // samples per request
	// Interval is how often the history is looked at when no commit said
	// there was something new.
	Interval time.Duration `yaml:"interval"`
	// Delay is how old a reading is before it is sent: readings that
	// arrive later than that, stamped older (a station's backlog), are
	// not sent. Zero is the commit interval and 30 s.
	Delay time.Duration `yaml:"delay"`
	// MaxRate bounds the samples sent a second, catching up after an
	// outage.
	MaxRate int           `yaml:"max_samples_per_second"`
	Timeout time.Duration `yaml:"timeout"`
	// Backfill is how far back a new store's readings start: the first
	// time the hub pushes to a store it sends the history of that long
	// before (0: from now on). Prometheus takes old samples only within
	// its out_of_order_time_window.
	Backfill time.Duration `yaml:"backfill"`
	// MaxBackoff is the longest wait between tries while the store fails
	// or refuses.
	MaxBackoff time.Duration `yaml:"max_backoff"`
	// Protocol is the remote-write version sent: "1.0" (the default),
	// which every store takes, or "2.0" (wire2.go), which falls back to
	// 1.0 when the store answers as a 1.0 receiver.
	Protocol string `yaml:"protocol"`
}

// The versions of the protocol Config.Protocol names.
const (
	Protocol1 = "1.0"
	Protocol2 = "2.0"
)

// BasicAuth is HTTP basic authentication, the password in a file.
type BasicAuth struct {
	Username     string `yaml:"username"`
	PasswordFile string `yaml:"password_file"`
}

// TLSConfig is how the store's certificate is checked, and the hub's own
// certificate for a store that asks for one.
type TLSConfig struct {
	CAFile             string `yaml:"ca_file"`   // the store's CA; empty: the system's
	CertFile           string `yaml:"cert_file"` // a client certificate, with key_file
	KeyFile            string `yaml:"key_file"`
	ServerName         string `yaml:"server_name"`
	InsecureSkipVerify bool   `yaml:"insecure_skip_verify"`
}

var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// Validate reports what is wrong with c as a *field.Error at its key
// within the entry (basic_auth.username). It reads no file: the secrets
// are the service's, which climated config check in a shell may not
// read; the hub reads them when it starts (Config.CheckFiles).
func (c Config) Validate() error {
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return field.Errorf("url", "url: %q is not an http or https URL (VictoriaMetrics: http://HOST:8428/api/v1/write; Prometheus: http://HOST:9090/api/v1/write)", c.URL)
	}
	if u.User != nil {
		return field.Errorf("url", "url: no user or password in the URL; use basic_auth with a password_file")
	}
	if c.BasicAuth != nil && c.BearerTokenFile != "" {
		return field.Errorf("bearer_token_file", "bearer_token_file: basic_auth or bearer_token_file, not both")
	}
	if a := c.BasicAuth; a != nil && (a.Username == "" || a.PasswordFile == "") {
		key := "username"
		if a.Username != "" {
			key = "password_file"
		}
		return field.Errorf("basic_auth."+key, "basic_auth.%s: missing", key)
	}
	if (c.TLS.CertFile == "") != (c.TLS.KeyFile == "") {
		return field.Errorf("tls.cert_file", "tls: cert_file and key_file go together")
	}
	for name := range c.Labels {
		if !labelName.MatchString(name) || strings.HasPrefix(name, "__") || name == "zone" || name == "source" || name == "simulated" {
			return field.Errorf("labels."+name, "labels: %q is not a label name of our own (letters, digits and _, not starting with __, not zone, source or simulated)", name)
		}
	}
	if c.Protocol != "" && c.Protocol != Protocol1 && c.Protocol != Protocol2 {
		return field.Errorf("protocol", "protocol: %q is not a version of remote write the hub sends: want 1.0 (the default; every store takes it) or 2.0", c.Protocol)
	}
	return c.validateNumbers()
}

// CheckFiles reads the files c names (the secrets, the CA, the client
// certificate) as a request will, and says which one fails, as a
// *field.Error at its key within the entry, never with what it holds.
func (c Config) CheckFiles() error {
	if a := c.BasicAuth; a != nil {
		if _, err := readSecret(a.PasswordFile); err != nil {
			return field.Errorf("basic_auth.password_file", "basic_auth.password_file: %v", err)
		}
	}
	if c.BearerTokenFile != "" {
		if _, err := readSecret(c.BearerTokenFile); err != nil {
			return field.Errorf("bearer_token_file", "bearer_token_file: %v", err)
		}
	}
	if _, err := c.TLS.config(); err != nil {
		return field.Errorf("tls", "tls: %v", err)
	}
	return nil
}

func (c Config) validateNumbers() error {
	checks := []struct {
		key string
		bad bool
		why string
	}{
		{"batch_size", c.BatchSize < 0 || c.BatchSize > maxBatchSize, fmt.Sprintf("%d: want 1 to %d samples a request", c.BatchSize, maxBatchSize)},
		{"interval", c.Interval < 0 || (c.Interval > 0 && c.Interval < time.Second), fmt.Sprintf("%s: want at least 1s", c.Interval)},
		{"backfill", c.Backfill < 0, fmt.Sprintf("%s: want a duration of 0 or more", c.Backfill)},
		{"delay", c.Delay < 0, fmt.Sprintf("%s: want a duration of 0 or more", c.Delay)},
		{"max_samples_per_second", c.MaxRate < 0, fmt.Sprintf("%d: want a positive number", c.MaxRate)},
		{"max_backoff", c.MaxBackoff < 0 || (c.MaxBackoff > 0 && c.MaxBackoff < time.Second), fmt.Sprintf("%s: want at least 1s", c.MaxBackoff)},
		{"timeout", c.Timeout < 0 || (c.Timeout > 0 && c.Timeout < time.Second), fmt.Sprintf("%s: want at least 1s", c.Timeout)},
	}
	for _, k := range checks {
		if k.bad {
			return field.Errorf(k.key, "%s %s", k.key, k.why)
		}
	}
	return nil
}

// withDefaults is c with zero fields set; commit is the history's commit
// interval, from which the delay follows.
func (c Config) withDefaults(commit time.Duration) Config {
	if c.BatchSize == 0 {
		c.BatchSize = DefaultBatchSize
	}
	if c.Interval == 0 {
		c.Interval = DefaultInterval
	}
	if c.Delay == 0 {
		c.Delay = commit + DefaultSettle
	}
	if c.MaxRate == 0 {
		c.MaxRate = DefaultMaxRate
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxBackoff == 0 {
		c.MaxBackoff = DefaultMaxBackoff
	}
	if c.Protocol == "" {
		c.Protocol = Protocol1
	}
	return c
}

// readSecret is a file's content without its surrounding white space; an
// error says what is wrong, never what the file holds.
func readSecret(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("missing: the path of a file that holds it")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", fmt.Errorf("%s is empty", path)
	}
	return s, nil
}
