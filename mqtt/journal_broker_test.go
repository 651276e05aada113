package mqtt

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// A persistent session keeps every subscription; a filter that the
// configuration no longer has is unsubscribed at the next start, so the
// broker stops queueing its messages for the hub.
func TestMosquittoStaleSubscriptionDropped(t *testing.T) {
	m := testutil.NewMosquitto(t)
	m.Start()
	opts := fastOptions(m.URL(), "climated/stale")
	opts.SessionFile = filepath.Join(t.TempDir(), "climated.db.mqtt")
	run := func(filters ...string) {
		t.Helper()
		c := newClient(t, opts)
		for _, f := range filters { // as the ingest subscribes its mappings
			if err := c.SubscribeManualAck(f, 1, func(Message) {}); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { c.Run(ctx); close(done) }()
		testutil.WaitFor(t, "the connection", func() bool { return c.Sessions() == 1 })
		testutil.WaitFor(t, "the subscriptions to settle", func() bool {
			c.mu.RLock()
			defer c.mu.RUnlock()
			// The filters and the hub's own availability topic (ownstatus.go).
			return len(c.active) == len(filters)+1 && len(c.journal.stale(func(f string) bool { _, ok := c.active[f]; return ok })) == 0
		})
		cancel()
		<-done
	}
	run("sensors/+", "old/+")
	run("sensors/+") // "old/+" left the configuration

	dev := testutil.MQTTClient(t, m.URL(), "")
	mqtttest.Publish(t, dev, "old/x", 1, false, `{"n":1}`)
	mqtttest.Publish(t, dev, "sensors/y", 1, false, `{"n":2}`)
	// The session as the broker keeps it: only sensors/y was queued.
	s, err := openJournal(opts.SessionFile, "")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 4)
	// The hub's own availability (ownstatus.go), published as a run stops,
	// can be left queued too: not a subscription of the configuration.
	own := opts.Prefix + "/status"
	pc := paho.NewClient(paho.NewClientOptions().AddBroker(m.URL()).SetClientID(s.clientID).SetCleanSession(false).
		SetDefaultPublishHandler(func(_ paho.Client, pm paho.Message) {
			if pm.Topic() != own {
				got <- pm.Topic()
			}
		}))
	if tok := pc.Connect(); !tok.WaitTimeout(testutil.Patience) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer pc.Disconnect(50)
	select {
	case topic := <-got:
		if topic != "sensors/y" {
			t.Errorf("queued for the hub: %s, want only sensors/y", topic)
		}
	case <-time.After(testutil.Patience):
		t.Fatal("nothing queued")
	}
	select {
	case topic := <-got:
		t.Errorf("also queued: %s", topic)
	case <-time.After(100 * time.Millisecond):
	}
}
