package mqtt

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/mqtt/internal/mqtttest"
)

func TestOptionsValidate(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.txt")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o600)
	env := func(name string) (string, bool) {
		if name == "MQTT_PASSWORD" {
			return "s3cret", true
		}
		return "", false
	}
	cases := []struct {
		name string
		o    Options
		want string // "" means valid
	}{
		{"tcp", Options{Broker: "tcp://127.0.0.1:1883"}, ""},
		{"mqtt without port", Options{Broker: "mqtt://broker.local"}, ""},
		{"ws with path", Options{Broker: "ws://127.0.0.1:9001/mqtt"}, ""},
		{"tls, system roots", Options{Broker: "mqtts://broker.example.org"}, ""},
		{"password from env", Options{Broker: "tcp://h:1883", PasswordEnv: "MQTT_PASSWORD", LookupEnv: env}, ""},
		{"missing broker", Options{}, "broker: missing"},
		{"bad scheme", Options{Broker: "http://h:1883"}, `scheme "http"`},
		{"no host", Options{Broker: "tcp://:1883"}, "no host"},
		{"bad port", Options{Broker: "tcp://h:99999"}, `port "99999"`},
		{"credentials in URL", Options{Broker: "tcp://u:p@h:1883"}, "not in the URL"},
		{"TLS files without TLS", Options{Broker: "tcp://h:1883", CAFile: "ca.pem"}, "is not a TLS URL"},
		{"missing CA file", Options{Broker: "ssl://h:8883", CAFile: filepath.Join(dir, "nope.pem")}, "ca_file: open"},
		{"CA file not PEM", Options{Broker: "ssl://h:8883", CAFile: notPEM}, "no PEM certificate"},
		{"cert without key", Options{Broker: "tls://h:8883", CertFile: "c.pem"}, "give both or neither"},
		{"password twice", Options{Broker: "tcp://h:1883", Password: "a", PasswordEnv: "MQTT_PASSWORD", LookupEnv: env}, "set one, not both"},
		{"env unset", Options{Broker: "tcp://h:1883", PasswordEnv: "NOPE", LookupEnv: env}, "NOPE is not set"},
		{"keep-alive in nanoseconds", Options{Broker: "tcp://h:1883", KeepAlive: 30}, "keep_alive 30ns"},
		{"keep-alive too long", Options{Broker: "tcp://h:1883", KeepAlive: 19 * time.Hour}, "keep_alive"},
		{"negative timeout", Options{Broker: "tcp://h:1883", ConnectTimeout: -time.Second}, "connect_timeout"},
		{"wildcard prefix", Options{Broker: "tcp://h:1883", Prefix: "climated/+"}, `prefix "climated/+"`},
		{"wildcard availability", Options{Broker: "tcp://h:1883", AvailabilityTopic: "#"}, "availability_topic"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { mqtttest.WantErr(t, c.o.Validate(), c.want) })
	}
}

func TestOptionsDefaults(t *testing.T) {
	o := Options{Broker: "tcp://h:1883"}.withDefaults()
	if !strings.HasPrefix(o.ClientID, "climated-") || len(o.ClientID) != len("climated-")+8 {
		t.Errorf("client id %q", o.ClientID)
	}
	if o.KeepAlive != DefaultKeepAlive || o.Prefix != DefaultPrefix || o.AvailabilityTopic != "climated/status" {
		t.Errorf("defaults not applied: %+v", o)
	}
	o = Options{Broker: "tcp://h:1883", Prefix: "climated/attic"}.withDefaults()
	if o.AvailabilityTopic != "climated/attic/status" {
		t.Errorf("availability topic %q", o.AvailabilityTopic)
	}
}

func TestOptionsLogValueHidesPassword(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	log.Info("x", "mqtt", Options{Broker: "tcp://h:1883", Username: "hub", Password: "s3cret"})
	if strings.Contains(buf.String(), "s3cret") || !strings.Contains(buf.String(), "mqtt.password=true") {
		t.Errorf("log line %q", buf.String())
	}
}
