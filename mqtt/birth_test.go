package mqtt

import (
	"sync/atomic"
	"testing"

	"github.com/climated/climated/internal/testutil"
)

// Two publishers announce to Home Assistant (the zones' and the alerts'):
// both hear its birth though the client takes one handler per filter, and
// one stopping leaves the other watching. Before, the second one's
// subscription was refused ("already subscribed") and it stopped.
func TestBirthWatchedByTwo(t *testing.T) {
	srv, broker := startMochi(t)
	c := newClient(t, fastOptions(broker, "climated/house"))
	runClient(t, c)
	var zones, alerts atomic.Bool
	stopZones, err := c.watchBirth("homeassistant", &zones)
	if err != nil {
		t.Fatal(err)
	}
	stopAlerts, err := c.watchBirth("homeassistant", &alerts)
	if err != nil {
		t.Fatalf("second watcher: %v", err)
	}
	waitSubscribed(t, srv, "homeassistant/status")
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
	c.mu.RLock()
	_, still := c.subs["homeassistant/status"]
	c.mu.RUnlock()
	if still {
		t.Error("status topic still subscribed with no watcher left")
	}
}
