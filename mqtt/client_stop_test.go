package mqtt

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// A reload stops the old client whenever it comes, also while it waits
// for the broker to confirm its subscriptions: that cancellation is
// planned, and no error (a soak once saw four "mqtt: subscribe failed …
// context canceled" ERROR lines at every reload).
func TestStopWhileSubscribingLogsNoError(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	p, subscribing := newSubackDropper(t, strings.TrimPrefix(m.URL(), "tcp://"))
	log := &testutil.Buffer{}
	opts := fastOptions(p.URL(), "climated/stopsub")
	opts.Logger = mqtttest.LoggerTo(t, log)
	c := newClient(t, opts)
	for _, f := range []string{"zigbee2mqtt/+", "shellies/+/status", "tele/+/SENSOR", "homeassistant/status"} {
		if err := c.Subscribe(f, 1, func(Message) {}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	select {
	case <-subscribing:
	case <-time.After(testutil.Patience):
		t.Fatal("the client sent no SUBSCRIBE")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testutil.Patience):
		t.Fatal("Run did not return after its context ended")
	}
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, "level=ERROR") || strings.Contains(line, "level=WARN") && strings.Contains(line, "context canceled") {
			t.Errorf("a planned stop logged %s", line)
		}
	}
}

// newSubackDropper is a proxy to a broker that passes every MQTT packet
// on but the broker's SUBACKs: the client's subscriptions never complete.
// subscribing receives once the client has sent a SUBSCRIBE.
func newSubackDropper(t testing.TB, target string) (p *mqtttest.Proxy, subscribing chan struct{}) {
	t.Helper()
	subscribing = make(chan struct{}, 1)
	return mqtttest.NewFilterProxy(t, target, func(up bool, cp packets.ControlPacket) bool {
		switch cp.(type) {
		case *packets.SubscribePacket:
			signal(subscribing)
		case *packets.SubackPacket:
			return up
		}
		return true
	}), subscribing
}
