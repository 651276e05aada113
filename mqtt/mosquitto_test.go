package mqtt

import (
	"context"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// The broker is down when the hub starts, comes up, goes away and comes
// back: the hub keeps trying, subscribes again after every connect and
// takes in the readings sent after the restart.
func TestMosquittoDownAtStartAndRestarted(t *testing.T) {
	m := testutil.NewMosquitto(t)
	store := openStore(t)
	c := newClient(t, fastOptions(m.URL(), "climated/restart"))
	in, err := NewIngest(c, []Mapping{{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true}}, &IngestOptions{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	runClient(t, c)
	runIngest(t, in, store)
	if err := c.Health(); err == nil {
		t.Fatal("Health is nil with no broker")
	}

	m.Start()
	testutil.WaitFor(t, "the first connection", func() bool { return c.Sessions() == 1 && c.Connected() })
	dev := testutil.MQTTClient(t, m.URL(), "")
	observer := testutil.MQTTClient(t, m.URL(), "")
	publish(t, dev, "zigbee2mqtt/study", 1, false, `{"temperature":20.0,"humidity":45}`)
	testutil.WaitFor(t, "the first reading", func() bool { v, _ := value(store, "study", "Temperature"); return v == 20.0 })

	m.Stop()
	testutil.WaitFor(t, "Health to say the connection was lost", func() bool {
		err := c.Health()
		return err != nil && strings.Contains(err.Error(), "not connected since") && strings.Contains(err.Error(), "connection lost")
	})
	m.Start()
	testutil.WaitFor(t, "the reconnection", func() bool { return c.Sessions() == 2 && c.Connected() })
	// The broker kept nothing (no persistence): the hub said online again.
	status := make(chan Message, 1)
	testutil.WaitFor(t, "the observer to reconnect", observer.IsConnectionOpen)
	observer.Subscribe("climated/restart/status", 1, func(_ paho.Client, pm paho.Message) {
		status <- Message{Topic: pm.Topic(), Payload: pm.Payload(), Retained: pm.Retained()}
	}).WaitTimeout(testutil.Patience)
	if s := recv(t, status); string(s.Payload) != "online" || !s.Retained {
		t.Errorf("availability after the restart: %+v", s)
	}
	// The subscription is back (Sessions counts after subscribing): a
	// new reading arrives. (A device of its own: paho's resume after a
	// reconnect races with a QoS 1 publish, eclipse/paho.mqtt.golang#703.)
	dev = testutil.MQTTClient(t, m.URL(), "")
	publish(t, dev, "zigbee2mqtt/study", 1, false, `{"temperature":22.5}`)
	testutil.WaitFor(t, "the reading after the restart", func() bool {
		v, _ := value(store, "study", "Temperature")
		return v == 22.5
	})
	if st := in.Stats(); st.Readings < 3 {
		t.Errorf("stats %+v", st)
	}
}

// The availability topic says online while the hub is connected; offline
// from the broker's last will when the connection breaks, online again
// after the reconnection, and offline from the hub itself when it stops.
func TestMosquittoAvailabilityAndWill(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	p := newProxy(t, strings.TrimPrefix(m.URL(), "tcp://"))
	c := newClient(t, fastOptions(p.url(), "climated/will"))
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
	p.cut() // the network fails: the broker publishes the will
	expect("offline")
	expect("online") // paho reconnected through the proxy
	cancel()
	<-done
	expect("offline")
}

var _ sensors.Source = (*Ingest)(nil)
