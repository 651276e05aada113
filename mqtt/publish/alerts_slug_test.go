package publish

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

// TestAlertTopicsBesideState: "Living room" and "Living-room" both slug
// to living_room. On a real broker, with the state publisher and the alert
// publisher on one client, the second zone's alert topics, binary_sensor
// and unique_id use its hashed slug, the one of its state topic and
// device, so neither zone's alert overwrites the other's.
func TestAlertTopicsBesideState(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	got := mqtttest.CaptureOn(t, srv, "#", 1)
	c := clienttest.New(t, clienttest.FastOptions(broker, "climated/hub"))
	house := &fakeClimate{}
	house.set(`{"Living room":{"CO2":700,"When":1796036400},"Living-room":{"CO2":700,"When":1796036400}}`)
	states, err := NewPublisher(c, house, &Options{Enabled: true, HomeAssistant: true, Interval: 10 * time.Millisecond, Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	e := alertEngineWith(t, func(r *alerts.HouseRule) { r.For = 0 })
	p, err := NewAlertPublisher(c, e, &AlertOptions{HomeAssistant: true, Interval: 10 * time.Millisecond, Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runPublisher(t, states)
	mqtttest.RunUntilCleanup(t, "alert publisher Run", p.Run)

	plain, hashed := "living_room", "living_room_"+fnvHex("Living-room")
	testutil.WaitFor(t, "both zones' states", func() bool {
		a, okA := got.Last("climated/hub/" + plain + "/state")
		b, okB := got.Last("climated/hub/" + hashed + "/state")
		return okA && okB && jsonOf(t, a)["zone"] == "Living room" && jsonOf(t, b)["zone"] == "Living-room"
	})
	testutil.WaitFor(t, "connected", c.Ready)
	observe := func(zone string, ppm float64) {
		evs, err := e.Observe(context.Background(), []sensors.Reading{{Zone: zone, Measurement: sensors.CO2, Value: ppm, Time: time.Now(), Source: "test"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			p.Event(ev)
		}
	}
	observe("Living-room", 1500) // fires, and stays on
	observe("Living room", 1500) // fires, then clears
	observe("Living room", 900)

	const rule = "climated/hub/alerts/house_co2/"
	testutil.WaitFor(t, "each zone's alert state on its own topic", func() bool {
		a, _ := got.Last(rule + plain + "/state")
		b, _ := got.Last(rule + hashed + "/state")
		return string(a.Payload) == "OFF" && string(b.Payload) == "ON"
	})
	if m, _ := got.Last(rule + hashed + "/event"); !json.Valid(m.Payload) || jsonOf(t, m)["zone"] != "Living-room" {
		t.Errorf("Living-room's event on %s: %q", rule+hashed+"/event", m.Payload)
	}
	if m, _ := got.Last(rule + plain + "/event"); !json.Valid(m.Payload) || jsonOf(t, m)["zone"] != "Living room" {
		t.Errorf("Living room's event on %s: %q", rule+plain+"/event", m.Payload)
	}
	for zone, zs := range map[string]string{"Living room": plain, "Living-room": hashed} {
		topic := "homeassistant/binary_sensor/climated_hub/" + zs + "_alert_house_co2/config"
		testutil.WaitFor(t, zone+"'s binary_sensor", func() bool { _, ok := got.Last(topic); return ok })
		m, _ := got.Last(topic)
		var cfg struct {
			UniqueID   string `json:"unique_id"`
			StateTopic string `json:"state_topic"`
			Device     struct {
				Identifiers []string `json:"identifiers"`
				Name        string   `json:"name"`
			} `json:"device"`
		}
		json.Unmarshal(m.Payload, &cfg)
		// The zone's device as the state publisher announces it.
		s, _ := got.Last("homeassistant/sensor/climated_hub/" + zs + "_co2/config")
		var sensor struct {
			Device struct {
				Identifiers []string `json:"identifiers"`
			} `json:"device"`
		}
		json.Unmarshal(s.Payload, &sensor)
		if cfg.UniqueID != "climated_hub_"+zs+"_alert_house_co2" || cfg.StateTopic != rule+zs+"/state" || cfg.Device.Name != zone ||
			len(cfg.Device.Identifiers) != 1 || len(sensor.Device.Identifiers) != 1 || cfg.Device.Identifiers[0] != sensor.Device.Identifiers[0] {
			t.Errorf("%s: binary_sensor %s, the zone's device %s", zone, m.Payload, s.Payload)
		}
	}
}
