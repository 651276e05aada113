package publish

import (
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// Home Assistant strips an entity name that starts with its device's name,
// with a warning: a zone named Rain gets "Last hour", not "Rain, last hour",
// and a zone named Temperature its temperature under the zone's own name.
func TestDiscoveryNamesDoNotRepeatTheZone(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	ha := mqtttest.CaptureOn(t, srv, "homeassistant/#", 1)
	c := clienttest.New(t, clienttest.FastOptions(broker, "climated/hub"))
	climate := &fakeClimate{}
	climate.set(`{"Rain":{"Rain":0.3,"sum_rain_1":0.3,"sum_rain_24":4.8,"When":1796036400},"Temperature":{"Temperature":4.5,"When":1796036400}}`)
	p, err := NewPublisher(c, climate, &Options{Enabled: true, HomeAssistant: true, Interval: 10 * time.Millisecond, Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runPublisher(t, p)
	want := map[string]any{
		"homeassistant/sensor/climated_hub/rain_rain/config":               "Latest interval",
		"homeassistant/sensor/climated_hub/rain_sum_rain_1/config":         "Last hour",
		"homeassistant/sensor/climated_hub/rain_sum_rain_24/config":        "Last 24 hours",
		"homeassistant/sensor/climated_hub/rain_when/config":               "Last update",
		"homeassistant/sensor/climated_hub/temperature_temperature/config": nil,
	}
	for topic, name := range want {
		testutil.WaitFor(t, topic, func() bool { _, ok := ha.Last(topic); return ok })
		m, _ := ha.Last(topic)
		got, present := jsonOf(t, m)["name"]
		if !present || got != name {
			t.Errorf("%s: name %v (present %v), want %v", topic, got, present, name)
		}
	}
}
