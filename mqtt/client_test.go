package mqtt

import (
	"testing"
	"time"

	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

func TestClientPassword(t *testing.T) {
	env := map[string]string{"GOOD": "s3cret", "BAD": "guess"}
	o := fastOptions(passwordBroker(t), "climated/auth")
	o.Username = "hub"
	o.LookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	o.PasswordEnv = "GOOD"
	connects(t, o, "")
	o.PasswordEnv = "BAD"
	connects(t, o, "not Authorized")
}

func TestClientWebSocket(t *testing.T) {
	addr := "127.0.0.1:" + testutil.FreePort(t)
	testutil.Broker(t, listeners.NewWebsocket(listeners.Config{ID: "ws", Address: addr}), new(auth.AllowHook), nil)
	c := newClient(t, fastOptions("ws://"+addr+"/mqtt", "climated/ws"))
	runClient(t, c)
	testutil.WaitFor(t, "the WebSocket connection", c.Connected)
}

// The broker holds the hub's last will, and the keep-alive given as a
// duration arrives in seconds.
func TestClientWillAndKeepAlive(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	o := fastOptions(broker, "climated/w")
	o.ClientID, o.KeepAlive = "hub-w", 42*time.Second
	c := newClient(t, o)
	runClient(t, c)
	testutil.WaitFor(t, "the connection", c.Connected)
	cl, ok := srv.Clients.Get("hub-w")
	if !ok {
		t.Fatal("the broker does not know client hub-w")
	}
	w := cl.Properties.Will
	if w.TopicName != "climated/w/status" || string(w.Payload) != "offline" || !w.Retain || w.Qos != 1 {
		t.Errorf("will %+v", w)
	}
	if cl.State.Keepalive != 42 {
		t.Errorf("keep-alive %d s, want 42", cl.State.Keepalive)
	}
}

// QoS 1 subscriptions get QoS 1 messages, and a retained message that
// waited on the broker arrives marked as retained.
func TestClientQoS1AndRetained(t *testing.T) {
	_, broker := mqtttest.StartMochi(t)
	dev := testutil.MQTTClient(t, broker, "")
	mqtttest.Publish(t, dev, "qos/retained", 1, true, "kept")
	c := newClient(t, fastOptions(broker, "climated/test"))
	got := make(chan Message, 4)
	if err := c.Subscribe("qos/#", 1, func(m Message) { got <- m }); err != nil {
		t.Fatal(err)
	}
	runClient(t, c)
	m := mqtttest.Recv(t, got)
	if m.Topic != "qos/retained" || !m.Retained || m.QoS != 1 || string(m.Payload) != "kept" {
		t.Errorf("retained message %+v", m)
	}
	mqtttest.Publish(t, dev, "qos/live", 1, false, "now")
	// mochi acknowledges a publish before it delivers it, so the retained
	// message may also arrive as a live one, after the retained copy.
	for m = mqtttest.Recv(t, got); m.Topic == "qos/retained"; m = mqtttest.Recv(t, got) {
	}
	if m.Topic != "qos/live" || m.Retained || m.QoS != 1 {
		t.Errorf("live message %+v", m)
	}
	if err := c.Subscribe("qos/#", 0, func(Message) {}); err == nil {
		t.Error("a second subscription to the same filter was accepted")
	}
}
