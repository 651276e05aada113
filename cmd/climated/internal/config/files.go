package config

import (
	_ "embed"
	"fmt"
	"strings"
)

// The annotated example of every key, and the starter file that the
// package and install.sh put in /etc/climated.
var (
	//go:embed example.yaml
	Example []byte
	//go:embed starter.yaml
	Starter []byte
)

// DefaultFile is where the service reads its configuration.
const DefaultFile = "/etc/climated/climated.yaml"

// Summary says in a few words what a configuration sets up.
func (c Config) Summary() string {
	var parts []string
	parts = append(parts, "listen "+c.Listen)
	if n := len(c.HW.Sensors); n > 0 {
		parts = append(parts, Plural(n, "sensor"))
	}
	if c.RainGauge != nil {
		parts = append(parts, "rain gauge on "+c.RainGauge.Pin)
	}
	if c.MQTT != nil {
		parts = append(parts, fmt.Sprintf("MQTT %s with %s", c.MQTT.Options.Broker, Plural(len(c.MQTT.Subscriptions), "subscription")))
	}
	if c.Station != nil {
		parts = append(parts, "a weather station")
	}
	if !c.NamesSource() {
		parts = append(parts, "no sensors: scan the I²C bus, else the demo house")
	}
	return strings.Join(parts, ", ")
}

// NamesSource reports whether the configuration names a source of
// readings (sensors:, rain_gauge:, station: or MQTT subscriptions);
// without one the hub scans the default I²C bus and, when nothing
// answers, runs the demo house.
func (c Config) NamesSource() bool {
	return len(c.HW.Sensors) > 0 || c.RainGauge != nil || c.Station != nil || (c.MQTT != nil && len(c.MQTT.Subscriptions) > 0)
}

// Plural is "1 sensor", "2 sensors".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
