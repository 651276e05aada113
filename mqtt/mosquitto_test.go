package mqtt

import (
	"context"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// The availability topic says online while the hub is connected; offline
// from the broker's last will when the connection breaks, online again
// after the reconnection, and offline from the hub itself when it stops.
func TestMosquittoAvailabilityAndWill(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	p := mqtttest.NewProxy(t, strings.TrimPrefix(m.URL(), "tcp://"))
	c := newClient(t, fastOptions(p.URL(), "climated/will"))
	observer := testutil.MQTTClient(t, m.URL(), "")
	got := make(chan string, 16)
	observer.Subscribe("climated/will/status", 1, func(_ paho.Client, pm paho.Message) { got <- string(pm.Payload()) }).WaitTimeout(testutil.Patience)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.Run(ctx) }()
	expect := func(want string) {
		t.Helper()
		select {
		case s := <-got:
			if s != want {
				t.Fatalf("availability %q, want %q", s, want)
			}
		case <-time.After(testutil.Patience):
			t.Fatalf("no availability message, want %q", want)
		}
	}
	expect("online")
	p.Cut() // the network fails: the broker publishes the will
	expect("offline")
	expect("online") // paho reconnected through the proxy
	cancel()
	<-done
	expect("offline")
}
