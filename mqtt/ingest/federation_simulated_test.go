package ingest

import (
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

// TestFederatedDemoStaysSimulated: a hub that runs the demo house (no
// sensors of its own, publish: enabled) publishes its zones like any
// other; a second hub that follows it (format climated) must keep those
// values simulated, as the first hub does (sensors.Simulated: the
// simulated label on /metrics, the demo forgotten when it stops, a
// measured series never taking them), not record them as an MQTT
// device's measured readings of its house.
func TestFederatedDemoStaysSimulated(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	a := startHub(t, broker, "climated/a", "climated/b")
	b := startHub(t, broker, "climated/b", "climated/a")
	mqtttest.WaitSubscribed(t, srv, "climated/a/x/state")
	mqtttest.WaitSubscribed(t, srv, "climated/b/x/state")

	at := time.Now().Truncate(time.Second).Add(-time.Minute)
	a.record(t, sensors.Reading{Zone: "Attic", Measurement: sensors.Temperature, Value: 27.5, Time: at, Source: "demo/Attic"})
	testutil.WaitFor(t, "Attic Temperature on the second hub", func() bool { got, _ := value(b.store, "Attic", "Temperature"); return got == 27.5 })

	for _, z := range b.store.live.Describe() {
		for _, m := range z.Measurements {
			if !sensors.Simulated(m.Source) {
				t.Errorf("the second hub records the demo's %s %s (%v) as measured, from source %q", z.Name, m.Name, m.Value, m.Source)
			}
		}
	}
}
