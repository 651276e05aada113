package mqtt

import (
	"testing"
	"time"

	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"

	"github.com/climated/climated/internal/testutil"
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
	srv, broker := startMochi(t)
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
