package config

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/ingest"
	"github.com/climated/climated/mqtt/publish"
	"github.com/climated/climated/sensors"
)

// The section as a user writes it decodes, with unknown keys refused, the
// way cmd/climated reads its file.
const configYAML = `
mqtt:
  broker: mqtts://broker.home.arpa
  client_id: climated-house
  username: climated
  password_env: CLIMATED_MQTT_PASSWORD
  ca_file: ""
  keep_alive: 45s
  reconnect_max: 1m
  prefix: climated/house
  subscriptions:
    - topic: zigbee2mqtt/+
      format: zigbee2mqtt
      devices:
        bedroom_th: Bedroom
      auto_zone: true
    - topic: weather/station
      format: generic
      zone: Garden
      qos: 0
      fields:
        - {measurement: Temperature, path: sensors.0.t, unit: °F}
        - {measurement: Rain, path: rain_total_in, unit: in, counter: true}
    - topic: climated/attic/+/state
      format: climated
  ingest:
    queue_size: 2048
    max_auto_zones: 10
  publish:
    enabled: true
    home_assistant: true
    interval: 2s
    zones: [Indoor, Bedroom]
`

func decodeMQTT(t *testing.T, text string) (MQTT, error) {
	t.Helper()
	var file struct {
		MQTT MQTT `yaml:"mqtt"`
	}
	dec := yaml.NewDecoder(bytes.NewReader([]byte(text)))
	dec.KnownFields(true)
	err := dec.Decode(&file)
	return file.MQTT, err
}

func TestConfigYAML(t *testing.T) {
	c, err := decodeMQTT(t, configYAML)
	if err != nil {
		t.Fatal(err)
	}
	c.Options.LookupEnv = func(string) (string, bool) { return "pw", true }
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	o := c.Options
	if o.Broker != "mqtts://broker.home.arpa" || o.KeepAlive != 45*time.Second || o.ReconnectMax != time.Minute ||
		o.PasswordEnv != "CLIMATED_MQTT_PASSWORD" || o.Prefix != "climated/house" {
		t.Errorf("options %+v", o)
	}
	if len(c.Subscriptions) != 3 {
		t.Fatalf("%d subscriptions", len(c.Subscriptions))
	}
	z2m, gen := c.Subscriptions[0], c.Subscriptions[1]
	if z2m.Devices["bedroom_th"] != "Bedroom" || !z2m.AutoZone || z2m.QoS != nil { // none: DefaultQoS
		t.Errorf("zigbee2mqtt mapping %+v", z2m)
	}
	if gen.QoS == nil || *gen.QoS != 0 || len(gen.Fields) != 2 || gen.Fields[0].Measurement != sensors.Temperature ||
		gen.Fields[0].Unit != "°F" || !gen.Fields[1].Counter {
		t.Errorf("generic mapping %+v", gen)
	}
	if c.Ingest.QueueSize != 2048 || c.Ingest.MaxAutoZones != 10 {
		t.Errorf("ingest %+v", c.Ingest)
	}
	if p := c.Publish; !p.Enabled || !p.HomeAssistant || p.Interval != 2*time.Second || len(p.Zones) != 2 {
		t.Errorf("publish %+v", p)
	}
	if _, err := decodeMQTT(t, "mqtt:\n  broker: tcp://h:1883\n  colour: blue\n"); err == nil || !strings.Contains(err.Error(), "field colour not found") {
		t.Errorf("unknown key: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	base := func() MQTT {
		return MQTT{
			Options:       mqtt.Options{Broker: "tcp://127.0.0.1:1883", Prefix: "climated/hub1"},
			Subscriptions: []ingest.Mapping{{Topic: "climated/hub2/+/state", Format: "climated"}},
			Publish:       publish.Options{Enabled: true, HomeAssistant: true},
		}
	}
	c := base()
	if err := c.Validate(); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	c.Subscriptions[0].Topic = "climated/+/+/state"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "subscriptions[0].topic \"climated/+/+/state\": takes in this hub's own states") {
		t.Errorf("error %v, want one containing %q", err, "subscriptions[0].topic \"climated/+/+/state\": takes in this hub's own states")
	}
	c = base()
	c.Ingest.QueueSize = -1
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "ingest: queue_size -1") {
		t.Errorf("error %v, want one containing %q", err, "ingest: queue_size -1")
	}
	c = base()
	c.Publish.Zones = []string{""}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "publish: zones[0]") {
		t.Errorf("error %v, want one containing %q", err, "publish: zones[0]")
	}
	c = MQTT{Options: mqtt.Options{Broker: "tcp://h:1883"}}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "nothing to do") {
		t.Errorf("error %v, want one containing %q", err, "nothing to do")
	}
}
