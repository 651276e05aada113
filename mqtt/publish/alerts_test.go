package publish

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

// alertEngine is a real engine on a real history file (the alerts' part of the schema),
// with only the CO2 house rule on.
func alertEngine(t *testing.T) *alerts.Engine { return alertEngineWith(t, nil) }

// alertEngineWith is alertEngine with its CO2 house rule changed by edit.
func alertEngineWith(t *testing.T, edit func(*alerts.HouseRule)) *alerts.Engine {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "climate.db")
	st, err := history.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(ctx) })
	db, err := alerts.OpenDB(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h := alerts.DefaultHouse()
	h.Mould.Enabled, h.Condensation.Enabled, h.Frost.Enabled, h.Storm.Enabled = false, false, false, false
	h.Silent.Enabled, h.Battery.Enabled = false, false
	if edit != nil {
		edit(&h.CO2)
	}
	e, err := alerts.New(ctx, &alerts.Options{Zones: []string{"Bedroom"}, House: &h, Store: db})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func observeCO2(t *testing.T, e *alerts.Engine, p *AlertPublisher, ppm float64) []alerts.Event {
	t.Helper()
	evs, err := e.Observe(context.Background(), []sensors.Reading{{Zone: "Bedroom", Measurement: sensors.CO2, Value: ppm, Time: time.Now(), Source: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		p.Event(ev)
	}
	return evs
}

// TestAlertPublisher: on a real broker, an alert that fires and clears
// gives two events, a retained state ON then OFF and a problem
// binary_sensor on the zone's device whose name does not repeat the
// device's; a house rule is announced by its name; a deleted rule's
// retained topics are removed; Home Assistant coming online gets the
// discovery again.
func TestAlertPublisher(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	got := mqtttest.CaptureOn(t, srv, "#", 1)
	c := clienttest.New(t, clienttest.FastOptions(broker, "climated/hub"))
	e := alertEngine(t)
	p, err := NewAlertPublisher(c, e, &AlertOptions{HomeAssistant: true, Interval: 10 * time.Millisecond, Version: "1.2.3", Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	mqtttest.RunUntilCleanup(t, "alert publisher Run", p.Run)
	r, err := e.Create(context.Background(), alerts.Rule{Zone: "Bedroom", Measurement: sensors.CO2, Kind: alerts.Above, Threshold: 1200})
	if err != nil {
		t.Fatal(err)
	}

	const (
		base   = "climated/hub/alerts/u1/bedroom"
		config = "homeassistant/binary_sensor/climated_hub/bedroom_alert_u1/config"
		house  = "homeassistant/binary_sensor/climated_hub/bedroom_alert_house_co2/config"
	)
	testutil.WaitFor(t, "connected", c.Ready) // an event while the broker is away is not sent later
	if evs := observeCO2(t, e, p, 1350); len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	checkFiredEvent(t, got, base+"/event", r.ID)
	testutil.WaitFor(t, "state ON", func() bool { s, ok := got.Last(base + "/state"); return ok && string(s.Payload) == "ON" && s.Retained })
	checkAlertDiscovery(t, got, config, base)
	testutil.WaitFor(t, "the house rule", func() bool { _, ok := got.Last(house); return ok })
	m, _ := got.Last(house)
	var cfg map[string]any
	if json.Unmarshal(m.Payload, &cfg); cfg["name"] != "Stuffy air" {
		t.Errorf("house rule's entity name %v", cfg["name"])
	}

	observeCO2(t, e, p, 900)
	testutil.WaitFor(t, "cleared", func() bool {
		m, _ := got.Last(base + "/event")
		var ev map[string]any
		return json.Unmarshal(m.Payload, &ev) == nil && ev["type"] == "cleared"
	})
	testutil.WaitFor(t, "state OFF", func() bool { s, _ := got.Last(base + "/state"); return string(s.Payload) == "OFF" })

	announced := got.Count(config)
	mqtttest.Publish(t, testutil.MQTTClient(t, broker, ""), "homeassistant/status", 1, false, "online")
	testutil.WaitFor(t, "discovery again when HA comes online", func() bool { return got.Count(config) > announced })

	if err := e.Delete(context.Background(), r.ID); err != nil {
		t.Fatal(err)
	}
	testutil.WaitFor(t, "the deleted rule's topics removed", func() bool {
		c, _ := got.Last(config)
		s, _ := got.Last(base + "/state")
		return len(c.Payload) == 0 && len(s.Payload) == 0
	})
	if s, _ := got.Last("climated/hub/alerts/house_co2/bedroom/state"); string(s.Payload) != "OFF" {
		t.Errorf("house rule state %q", s.Payload)
	}
}

// checkFiredEvent waits for the event of rule's firing on topic and checks it.
func checkFiredEvent(t *testing.T, got *mqtttest.Capture, topic, rule string) {
	t.Helper()
	testutil.WaitFor(t, "the event", func() bool { _, ok := got.Last(topic); return ok })
	m, _ := got.Last(topic)
	var ev map[string]any
	json.Unmarshal(m.Payload, &ev)
	want := map[string]any{"type": "fired", "rule": rule, "kind": "above", "zone": "Bedroom", "measurement": "CO2",
		"value": 1350.0, "unit": "ppm", "text": ev["text"], "time": ev["time"]}
	if !reflect.DeepEqual(ev, want) || m.Retained || ev["text"] == "" || ev["time"].(float64) < float64(time.Now().Add(-time.Minute).Unix()) {
		t.Errorf("event (retained %v) %s", m.Retained, m.Payload)
	}
}

// checkAlertDiscovery waits for the binary_sensor at config and checks it:
// a problem sensor of the zone's device whose name does not repeat the
// device's, reading the rule's state topic at base.
func checkAlertDiscovery(t *testing.T, got *mqtttest.Capture, config, base string) {
	t.Helper()
	testutil.WaitFor(t, "discovery", func() bool { _, ok := got.Last(config); return ok })
	m, _ := got.Last(config)
	var cfg map[string]any
	json.Unmarshal(m.Payload, &cfg)
	wantCfg := map[string]any{
		"name": "CO2 above 1200 ppm", "unique_id": "climated_hub_bedroom_alert_u1", "state_topic": base + "/state",
		"device_class": "problem", "availability_topic": "climated/hub/status", "payload_available": "online", "payload_not_available": "offline",
		"device": map[string]any{"identifiers": []any{"climated_hub_bedroom"}, "name": "Bedroom", "manufacturer": "climated",
			"model": "climated zone", "sw_version": "1.2.3", "suggested_area": "Bedroom"},
		"origin": map[string]any{"name": "climated", "sw_version": "1.2.3", "support_url": supportURL},
	}
	if !reflect.DeepEqual(cfg, wantCfg) || !m.Retained {
		t.Errorf("discovery (retained %v):\n got %v\nwant %v", m.Retained, cfg, wantCfg)
	}
}

// TestAlertEventNeverBlocks: with no Run to take them, events beyond the
// queue are dropped and counted, and Event returns at once.
func TestAlertEventNeverBlocks(t *testing.T) {
	c := clienttest.New(t, clienttest.FastOptions("tcp://127.0.0.1:1", "climated"))
	p, err := NewAlertPublisher(c, alertEngine(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		for range DefaultAlertQueue + 10 {
			p.Event(alerts.Event{Type: alerts.Fired, Rule: "u1", Zone: "Bedroom"})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(testutil.Patience):
		t.Fatal("Event blocked")
	}
	if p.Dropped() != 10 {
		t.Errorf("dropped %d, want 10", p.Dropped())
	}
}

func TestAlertOptionsInvalid(t *testing.T) {
	c := clienttest.New(t, clienttest.FastOptions("tcp://127.0.0.1:1", "climated"))
	_, err := NewAlertPublisher(c, alertEngine(t), &AlertOptions{DiscoveryPrefix: "home/#"})
	mqtttest.WantErr(t, err, `discovery_prefix "home/#"`)
	_, err = NewAlertPublisher(c, alertEngine(t), &AlertOptions{Interval: -time.Second})
	mqtttest.WantErr(t, err, "interval -1s")
}
