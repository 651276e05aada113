package publish

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

// fakeClimate serves a get_climate structure that tests change.
type fakeClimate struct {
	snap atomic.Pointer[climate.Snapshot]
}

func (f *fakeClimate) set(s string) {
	var c climate.Structure
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		panic(err)
	}
	f.snap.Store(&climate.Snapshot{Climate: c, JSON: []byte(s)})
}

func (f *fakeClimate) Snapshot() *climate.Snapshot { return f.snap.Load() }

// Points: a structure set from JSON has no window behind it.
func (f *fakeClimate) Points(string, sensors.Measurement, int64) []climate.Point { return nil }

func runPublisher(t testing.TB, p *Publisher) { mqtttest.RunUntilCleanup(t, "publisher Run", p.Run) }

// jsonOf decodes a captured payload.
func jsonOf(t *testing.T, m mqtttest.Received) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(m.Payload, &v); err != nil {
		t.Fatalf("%s: %v: %q", m.Topic, err, m.Payload)
	}
	return v
}

const bedroom = `{"Bedroom":{"Temperature":19.8,"min_temp":18.9,"Humidity":52,"battery_percent":83,"rf_status":61,"temp_trend":"stable","When":1796036400}}`

func TestPublisherHomeAssistantDiscovery(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	ha := mqtttest.CaptureOn(t, srv, "homeassistant/#", 1)
	states := mqtttest.CaptureOn(t, srv, "climated/#", 2)
	c := clienttest.New(t, clienttest.FastOptions(broker, "climated/hub"))
	climate := &fakeClimate{}
	climate.set(bedroom)
	p, err := NewPublisher(c, climate, &Options{Enabled: true, HomeAssistant: true, Interval: 10 * time.Millisecond, Version: "1.2.3", Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runPublisher(t, p)

	const tempTopic = "homeassistant/sensor/climated_hub/bedroom_temperature/config"
	testutil.WaitFor(t, "the temperature sensor", func() bool { _, ok := ha.Last(tempTopic); return ok })
	testutil.WaitFor(t, "the state", func() bool { _, ok := states.Last("climated/hub/bedroom/state"); return ok })
	m, _ := ha.Last(tempTopic)
	if !m.Retained {
		t.Error("discovery message not retained")
	}
	device := map[string]any{
		"identifiers": []any{"climated_hub_bedroom"}, "name": "Bedroom", "manufacturer": "climated",
		"model": "climated zone", "sw_version": "1.2.3", "suggested_area": "Bedroom",
	}
	common := map[string]any{
		"state_topic":           "climated/hub/bedroom/state",
		"availability_topic":    "climated/hub/status",
		"payload_available":     "online",
		"payload_not_available": "offline",
		"device":                device,
		"origin":                map[string]any{"name": "climated", "sw_version": "1.2.3", "support_url": supportURL},
	}
	with := func(fields map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range common {
			out[k] = v
		}
		for k, v := range fields {
			out[k] = v
		}
		return out
	}
	wantConfigs := map[string]map[string]any{
		"temperature": with(map[string]any{
			"name": "Temperature", "unique_id": "climated_hub_bedroom_temperature",
			"value_template": "{{ value_json.Temperature }}", "device_class": "temperature",
			"unit_of_measurement": "°C", "state_class": "measurement", "suggested_display_precision": 1.0,
		}),
		"min_temp": with(map[string]any{
			"name": "Minimum temperature today", "unique_id": "climated_hub_bedroom_min_temp",
			"value_template": "{{ value_json.min_temp }}", "device_class": "temperature",
			"unit_of_measurement": "°C", "state_class": "measurement", "suggested_display_precision": 1.0,
		}),
		"humidity": with(map[string]any{
			"name": "Humidity", "unique_id": "climated_hub_bedroom_humidity",
			"value_template": "{{ value_json.Humidity }}", "device_class": "humidity",
			"unit_of_measurement": "%", "state_class": "measurement", "suggested_display_precision": 0.0,
		}),
		"battery_percent": with(map[string]any{
			"name": "Battery", "unique_id": "climated_hub_bedroom_battery_percent",
			"value_template": "{{ value_json.battery_percent }}", "device_class": "battery",
			"unit_of_measurement": "%", "state_class": "measurement", "suggested_display_precision": 0.0,
			"entity_category": "diagnostic",
		}),
		"rf_status": with(map[string]any{
			"name": "Radio signal (Netatmo scale, lower is better)", "unique_id": "climated_hub_bedroom_rf_status",
			"value_template": "{{ value_json.rf_status }}", "state_class": "measurement",
			"suggested_display_precision": 0.0, "entity_category": "diagnostic", "icon": "mdi:signal",
		}),
		"temp_trend": with(map[string]any{
			"name": "Temperature trend", "unique_id": "climated_hub_bedroom_temp_trend",
			"value_template": "{{ value_json.temp_trend }}", "device_class": "enum",
			"options": []any{"up", "down", "stable"},
		}),
		"when": with(map[string]any{
			"name": "Last update", "unique_id": "climated_hub_bedroom_when",
			"value_template": "{{ as_datetime(value_json.When) }}", "device_class": "timestamp",
			"entity_category": "diagnostic",
		}),
	}
	for key, want := range wantConfigs {
		topic := "homeassistant/sensor/climated_hub/bedroom_" + key + "/config"
		testutil.WaitFor(t, topic, func() bool { _, ok := ha.Last(topic); return ok })
		m, _ := ha.Last(topic)
		got := jsonOf(t, m)
		for field, w := range want {
			if !reflect.DeepEqual(got[field], w) {
				t.Errorf("%s: %s = %#v, want %#v", key, field, got[field], w)
			}
		}
		for field := range got {
			if _, ok := want[field]; !ok {
				t.Errorf("%s: unexpected field %s = %#v", key, field, got[field])
			}
		}
	}
	st, _ := states.Last("climated/hub/bedroom/state")
	if !st.Retained {
		t.Error("state not retained")
	}
	wantState := map[string]any{"zone": "Bedroom", "Temperature": 19.8, "min_temp": 18.9, "Humidity": 52.0,
		"battery_percent": 83.0, "rf_status": 61.0, "temp_trend": "stable", "When": 1796036400.0}
	if got := jsonOf(t, st); !reflect.DeepEqual(got, wantState) {
		t.Errorf("state %v, want %v", got, wantState)
	}
	if online, ok := states.Last("climated/hub/status"); !ok || string(online.Payload) != "online" {
		t.Errorf("availability %+v", online)
	}

	// Home Assistant restarts and says online: everything again.
	before := ha.Count(tempTopic)
	srv.Publish("homeassistant/status", []byte("online"), false, 1)
	testutil.WaitFor(t, "the announcement again", func() bool { return ha.Count(tempTopic) > before })

	// A state changes: only it is published again; nothing new announced.
	nConfigs := ha.Count(tempTopic)
	climate.set(`{"Bedroom":{"Temperature":20.1,"min_temp":18.9,"Humidity":52,"battery_percent":83,"rf_status":61,"temp_trend":"up","When":1796036460}}`)
	testutil.WaitFor(t, "the new state", func() bool {
		m, _ := states.Last("climated/hub/bedroom/state")
		return jsonOf(t, m)["Temperature"] == 20.1
	})
	if ha.Count(tempTopic) != nConfigs {
		t.Error("a state change announced the sensor again")
	}

	// The zone goes: its sensors and state are removed.
	climate.set(`{"Living room":{"Temperature":21.0,"When":1796036460}}`)
	for key := range wantConfigs {
		topic := "homeassistant/sensor/climated_hub/bedroom_" + key + "/config"
		testutil.WaitFor(t, key+" removed", func() bool {
			m, _ := ha.Last(topic)
			return len(m.Payload) == 0 && m.Retained
		})
	}
	testutil.WaitFor(t, "the state removed", func() bool { m, _ := states.Last("climated/hub/bedroom/state"); return len(m.Payload) == 0 })
	testutil.WaitFor(t, "the new zone", func() bool {
		_, ok := ha.Last("homeassistant/sensor/climated_hub/living_room_temperature/config")
		return ok
	})
}

func TestPublisherSelectsZones(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	states := mqtttest.CaptureOn(t, srv, "climated/#", 1)
	c := clienttest.New(t, clienttest.FastOptions(broker, "climated/sel"))
	climate := &fakeClimate{}
	climate.set(`{"Indoor":{"Temperature":21},"Garden":{"Temperature":5},"Attic":{"Temperature":25},"attic":{"Temperature":26}}`)
	p, err := NewPublisher(c, climate, &Options{
		Enabled: true, Interval: 10 * time.Millisecond,
		Zones: []string{"Indoor", "Garden", "Attic", "attic"},
		Skip:  func(z string) bool { return z == "Garden" },
	})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runPublisher(t, p)
	testutil.WaitFor(t, "Indoor", func() bool { _, ok := states.Last("climated/sel/indoor/state"); return ok })
	// "Attic" and "attic" share a slug: the later one gets a hashed one.
	testutil.WaitFor(t, "both attics", func() bool {
		_, a := states.Last("climated/sel/attic/state")
		_, b := states.Last("climated/sel/attic_" + fnvHex("attic") + "/state")
		return a && b
	})
	if _, ok := states.Last("climated/sel/garden/state"); ok {
		t.Error("a skipped zone was published")
	}
}

func fnvHex(s string) string {
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("%08x", h.Sum32())
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Living room": "living_room", "Küche 1": "k_che_1", "  Attic--": "attic", "CO2": "co2", "!!": "",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
