package publish

import (
	"sync/atomic"
	"testing"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// Two publishers announce to Home Assistant (the zones' and the alerts'):
// both hear its birth though the client takes one handler per filter, and
// one stopping leaves the other watching. Before, the second one's
// subscription was refused ("already subscribed") and it stopped.
func TestBirthWatchedByTwo(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	c := clienttest.New(t, clienttest.FastOptions(broker, "climated/house"))
	clienttest.Run(t, c)
	var zones, alerts atomic.Bool
	stopZones, err := watchBirth(c, "homeassistant", &zones)
	if err != nil {
		t.Fatal(err)
	}
	stopAlerts, err := watchBirth(c, "homeassistant", &alerts)
	if err != nil {
		t.Fatalf("second watcher: %v", err)
	}
	mqtttest.WaitSubscribed(t, srv, "homeassistant/status")
	srv.Publish("homeassistant/status", []byte("online"), false, 0)
	testutil.WaitFor(t, "both watchers told of the birth", func() bool { return zones.Load() && alerts.Load() })
	zones.Store(false)
	alerts.Store(false)
	stopZones()
	srv.Publish("homeassistant/status", []byte("online"), false, 0)
	testutil.WaitFor(t, "the remaining watcher told", alerts.Load)
	if zones.Load() {
		t.Error("a stopped watcher was told")
	}
	stopAlerts()
	// A filter subscribed already cannot be subscribed again.
	if err := c.Subscribe("homeassistant/status", 1, func(mqtt.Message) {}); err != nil {
		t.Error("status topic still subscribed with no watcher left")
	}
}
