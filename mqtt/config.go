package mqtt

import (
	"errors"
	"fmt"
	"github.com/climated/climated/sensors/field"
	"strings"

	"github.com/climated/climated/mqtt/decode"
)

// Config is the mqtt section of climated's configuration file: the
// connection, the subscriptions, the ingest's tunables and the publishing.
type Config struct {
	Options       Options        `yaml:",inline"`
	Subscriptions []Mapping      `yaml:"subscriptions"`
	Ingest        IngestOptions  `yaml:"ingest"`
	Publish       PublishOptions `yaml:"publish"`
}

// Validate checks the whole section once, at start-up; errors name the
// field as it is spelled in the file (subscriptions[1].topic …).
func (c *Config) Validate() error {
	if err := c.Options.Validate(); err != nil {
		return err
	}
	if err := ValidateMappings(c.Subscriptions); err != nil {
		return err
	}
	if err := c.Ingest.Validate(); err != nil {
		return field.Wrap("ingest", ": ", err)
	}
	if err := c.Publish.Validate(); err != nil {
		return field.Wrap("publish", ": ", err)
	}
	if len(c.Subscriptions) == 0 && !c.Publish.Enabled && !c.Publish.HomeAssistant {
		return errors.New("subscriptions, publish: nothing to do; subscribe to a topic or enable publishing")
	}
	if c.Publish.Enabled || c.Publish.HomeAssistant {
		prefix := c.Options.Prefix
		if prefix == "" {
			prefix = DefaultPrefix
		}
		own := prefix + "/any_zone/state"
		for i, m := range c.Subscriptions {
			if m.Format == decode.Climated && matches(m.Topic, own) {
				return field.Errorf(fmt.Sprintf("subscriptions[%d].topic", i), "subscriptions[%d].topic %q: takes in this hub's own states (prefix %q); give each hub a prefix of its own, e.g. %s/hub2",
					i, m.Topic, prefix, strings.SplitN(prefix, "/", 2)[0])
			}
		}
	}
	return nil
}

// Validate reports what is wrong with o, naming the field.
func (o *IngestOptions) Validate() error {
	switch {
	case o.QueueSize < 0:
		return field.Errorf("queue_size", "queue_size %d: must not be negative", o.QueueSize)
	case o.MaxPayload < 0:
		return field.Errorf("max_payload", "max_payload %d: must not be negative", o.MaxPayload)
	case o.MaxAutoZones < 0:
		return field.Errorf("max_auto_zones", "max_auto_zones %d: must not be negative", o.MaxAutoZones)
	case o.LogInterval < 0:
		return field.Errorf("log_interval", "log_interval %s: must not be negative", o.LogInterval)
	}
	return nil
}
