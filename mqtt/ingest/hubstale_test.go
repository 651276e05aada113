package ingest

import (
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

// Another hub's status going offline makes the zones it fed stale at once,
// not only after StaleAfter of silence: through the broker, the ingest and
// a real SQLite history, the zone's health (sensors.HealthByZone, what
// describe_zones, the zones resource and the dashboard say) names the
// offline hub. How MCP shows that health is mcp's to test.
func TestOfflineHubZonesStale(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	a := startHub(t, broker, "climated/a", "climated/b")
	b := startHubOn(t, broker, "climated/b", "climated/a/#")
	mqtttest.WaitSubscribed(t, srv, "climated/a/x/state")
	a.record(t, sensors.Reading{Zone: "Bedroom", Measurement: sensors.Temperature, Value: 19.5, Time: time.Now().Truncate(time.Second), Source: "i2c1/0x76"})
	testutil.WaitFor(t, "Bedroom on hub b", func() bool { got, _ := value(b.store, "Bedroom", "Temperature"); return got == 19.5 })
	bedroom := func() sensors.ZoneHealth { return sensors.HealthByZone(b.store.Statuses())["Bedroom"] }
	if h := bedroom(); h.Offline || h.Fault != "" {
		t.Fatalf("Bedroom unhealthy while hub a is online: %+v", h)
	}
	// Hub a stops and says offline. (Another client's offline on its
	// status topic, while it runs, hub a would answer: mqtt/ownstatus.go.)
	a.stop()
	testutil.WaitFor(t, "Bedroom offline", func() bool { return bedroom().Offline })
	if h := bedroom(); h.Fault == "" {
		t.Errorf("Bedroom offline without the fault that names hub a: %+v", h)
	}
}
