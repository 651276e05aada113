package notify

import (
	"net/url"
	"strings"

	"github.com/climated/climated/sensors/field"
)

// Formats of the webhook body.
const (
	Ntfy   = "ntfy"
	Gotify = "gotify"
)

// Config is the webhook as the configuration file has it (alerts: webhook:).
type Config struct {
	// URL is ntfy's root URL ("https://ntfy.sh/") or Gotify's message URL
	// ("https://gotify.example.com/message").
	URL    string `yaml:"url"`
	Format string `yaml:"format"` // ntfy (the default) or gotify
	Topic  string `yaml:"topic"`  // ntfy's topic; required for ntfy
	// Token is ntfy's access token (sent as "Authorization: Bearer") or
	// Gotify's application token (sent as X-Gotify-Key). Optional for ntfy.
	Token string `yaml:"token"`
	// Cleared also sends an alert's end, not only its start.
	Cleared bool `yaml:"cleared"`
}

// Validate reports what is wrong with c as a *field.Error at its
// configuration key (alerts.webhook.topic).
func (c Config) Validate() error {
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return field.Errorf("alerts.webhook.url", "alerts.webhook.url: %q is not an http or https URL", c.URL)
	}
	switch c.format() {
	case Ntfy:
		if c.Topic == "" {
			return field.Errorf("alerts.webhook.topic", "alerts.webhook.topic: missing; ntfy needs the topic to publish to")
		}
		if p := strings.Trim(u.Path, "/"); p != "" {
			return field.Errorf("alerts.webhook.url", "alerts.webhook.url: ntfy takes JSON at its root URL (%s://%s/), not at %q; the topic goes in alerts.webhook.topic", u.Scheme, u.Host, u.Path)
		}
	case Gotify:
		if c.Token == "" {
			return field.Errorf("alerts.webhook.token", "alerts.webhook.token: missing; Gotify needs an application token")
		}
	default:
		return field.Errorf("alerts.webhook.format", "alerts.webhook.format: %q; valid formats: ntfy, gotify", c.Format)
	}
	return nil
}

func (c Config) format() string {
	if c.Format == "" {
		return Ntfy
	}
	return c.Format
}
