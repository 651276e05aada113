package ingest

import (
	"strings"
	"testing"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// The broker is down when the hub starts, comes up, goes away and comes
// back: the hub keeps trying, subscribes again after every connect and
// takes in the readings sent after the restart.
func TestMosquittoDownAtStartAndRestarted(t *testing.T) {
	m := testutil.NewMosquitto(t)
	store := openStore(t)
	c := clienttest.New(t, clienttest.FastOptions(m.URL(), "climated/restart"))
	in, err := New(c, []Mapping{{Topic: "zigbee2mqtt/+", Format: "zigbee2mqtt", AutoZone: true}}, &Options{Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runIngest(t, in, store)
	if err := c.Health(); err == nil {
		t.Fatal("Health is nil with no broker")
	}

	m.Start()
	testutil.WaitFor(t, "the first connection", func() bool { return c.Sessions() == 1 && c.Connected() })
	dev := testutil.MQTTClient(t, m.URL(), "")
	observer := testutil.MQTTClient(t, m.URL(), "")
	mqtttest.Publish(t, dev, "zigbee2mqtt/study", 1, false, `{"temperature":20.0,"humidity":45}`)
	testutil.WaitFor(t, "the first reading", func() bool { v, _ := value(store, "study", "Temperature"); return v == 20.0 })

	m.Stop()
	testutil.WaitFor(t, "Health to say the connection was lost", func() bool {
		err := c.Health()
		return err != nil && strings.Contains(err.Error(), "not connected since") && strings.Contains(err.Error(), "connection lost")
	})
	m.Start()
	testutil.WaitFor(t, "the reconnection", func() bool { return c.Sessions() == 2 && c.Connected() })
	// The broker kept nothing (no persistence): the hub said online again.
	status := make(chan mqtt.Message, 1)
	testutil.WaitFor(t, "the observer to reconnect", observer.IsConnectionOpen)
	observer.Subscribe("climated/restart/status", 1, func(_ paho.Client, pm paho.Message) {
		status <- mqtt.Message{Topic: pm.Topic(), Payload: pm.Payload(), Retained: pm.Retained()}
	}).WaitTimeout(testutil.Patience)
	if s := mqtttest.Recv(t, status); string(s.Payload) != "online" || !s.Retained {
		t.Errorf("availability after the restart: %+v", s)
	}
	// The subscription is back (Sessions counts after subscribing): a
	// new reading arrives. (A device of its own: paho's resume after a
	// reconnect races with a QoS 1 publish, eclipse/paho.mqtt.golang#703.)
	dev = testutil.MQTTClient(t, m.URL(), "")
	mqtttest.Publish(t, dev, "zigbee2mqtt/study", 1, false, `{"temperature":22.5}`)
	testutil.WaitFor(t, "the reading after the restart", func() bool {
		v, _ := value(store, "study", "Temperature")
		return v == 22.5
	})
	if st := in.Stats(); st.Readings < 3 {
		t.Errorf("stats %+v", st)
	}
}
