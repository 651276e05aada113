package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors/field"

	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/mqtt/ingest"
	"github.com/climated/climated/mqtt/publish"
)

// MQTT is the mqtt section of climated's configuration file: the
// connection (package mqtt), the subscriptions and the ingest's tunables
// (package ingest) and the publishing (package publish).
type MQTT struct {
	Options       mqtt.Options     `yaml:",inline"`
	Subscriptions []ingest.Mapping `yaml:"subscriptions"`
	Ingest        ingest.Options   `yaml:"ingest"`
	Publish       publish.Options  `yaml:"publish"`
}

// Validate checks the whole section once, at start-up; errors name the
// field as it is spelled in the file (subscriptions[1].topic …).
func (c *MQTT) Validate() error {
	if err := c.Options.Validate(); err != nil {
		return err
	}
	if err := ingest.ValidateMappings(c.Subscriptions); err != nil {
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
			prefix = mqtt.DefaultPrefix
		}
		own := prefix + "/any_zone/state"
		for i, m := range c.Subscriptions {
			if m.Format == decode.Climated && mqtt.Matches(m.Topic, own) {
				return field.Errorf(fmt.Sprintf("subscriptions[%d].topic", i), "subscriptions[%d].topic %q: takes in this hub's own states (prefix %q); give each hub a prefix of its own, e.g. %s/hub2",
					i, m.Topic, prefix, strings.SplitN(prefix, "/", 2)[0])
			}
		}
	}
	return nil
}
