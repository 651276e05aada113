package mqtt

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// recorded reads a payload recorded in decode/testdata: topic, payload.
func recorded(t testing.TB, format, name string) (string, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("decode", "testdata", format, name+".msg"))
	if err != nil {
		t.Fatal(err)
	}
	topic, payload, _ := bytes.Cut(data, []byte("\n"))
	return string(topic), string(payload)
}

// Device payloads of every format travel through a real broker into a
// real history store and show up in get_climate.
func TestIngestThroughBrokerIntoHistory(t *testing.T) {
	srv, broker := startMochi(t)
	store := openStore(t)
	dev := testutil.MQTTClient(t, broker, "")

	// A retained state waiting on the broker before the hub starts.
	topic, payload := recorded(t, "zigbee2mqtt", "aqara_weather")
	publish(t, dev, topic, 1, true, payload)

	c := newClient(t, fastOptions(broker, "climated/test"))
	in, err := NewIngest(c, []Mapping{
		{Topic: "zigbee2mqtt/#", Format: "zigbee2mqtt", Devices: map[string]string{"Bedroom sensor": "Bedroom"}},
		{Topic: "tele/+/+", Format: "tasmota", Devices: map[string]string{"tasmota_1A2B3C": "Indoor"}},
		{Topic: "livingroom-esp/#", Format: "esphome", Zone: "Living room"},
		{Topic: "shellyhtg3-84fce63ad204/#", Format: "shelly", Zone: "Bathroom"},
		{Topic: "home/+/BTtoMQTT/+", Format: "theengs", AutoZone: true},
		{Topic: "rtl_433/+/events", Format: "rtl_433", Devices: map[string]string{"Fineoffset-WH24/140": "Garden"}},
	}, &IngestOptions{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	runClient(t, c)
	runIngest(t, in, store)
	for _, topic := range []string{"zigbee2mqtt/x", "tele/x/SENSOR", "livingroom-esp/status", "shellyhtg3-84fce63ad204/online", "home/x/BTtoMQTT/x", "rtl_433/pi/events"} {
		waitSubscribed(t, srv, topic)
	}

	for _, m := range [][2]string{
		{"tasmota", "bme280"}, {"tasmota", "state_wifi"},
		{"esphome", "temperature"}, {"esphome", "humidity"}, {"esphome", "wifi_signal"},
		{"shelly", "temperature"}, {"shelly", "humidity"}, {"shelly", "devicepower"},
		{"theengs", "lywsd03mmc_atc"}, {"theengs", "beacon"},
		{"rtl_433", "fineoffset_wh24"},
	} {
		topic, payload := recorded(t, m[0], m[1])
		publish(t, dev, topic, 1, false, payload)
	}
	// Garbage on a device's topic changes nothing.
	publish(t, dev, "zigbee2mqtt/Bedroom sensor", 1, false, `{"temperature":-300,"humidity":`)
	// The rain gauge's counter moves on by 0.3 mm.
	publish(t, dev, "rtl_433/pi/events", 1, false, `{"model":"Fineoffset-WH24","id":140,"battery_ok":1,"temperature_C":6.4,"humidity":88,"rain_mm":123.7}`)

	want := map[string]map[string]float64{
		"Bedroom":      {"Temperature": 20.9, "Humidity": 53, "Pressure": 1009.8, "battery_percent": 91, "battery_vp": 2985, "rf_status": 80},
		"Indoor":       {"Temperature": 21.3, "Humidity": 45, "AbsolutePressure": 1003.4, "rf_status": 65},
		"Living room":  {"Temperature": 21.6, "Humidity": 47, "rf_status": 63},
		"Bathroom":     {"Temperature": 21.6, "Humidity": 54, "battery_percent": 91, "battery_vp": 5920},
		"A4C138AABBCC": {"Temperature": 22.4, "Humidity": 48, "battery_percent": 87, "battery_vp": 2960, "rf_status": 71},
		"Garden":       {"Temperature": 6.4, "Humidity": 88, "battery_percent": 100, "Rain": 0.3},
	}
	for zone, keys := range want {
		for key, w := range keys {
			testutil.WaitFor(t, zone+" "+key, func() bool {
				v, ok := value(store, zone, key)
				return ok && v == w
			})
		}
	}
	if zones := store.Zones(); len(zones) != len(want) {
		t.Errorf("zones %v, want those of %v (a BLE beacon makes no zone)", zones, want)
	}
	st := in.Stats()
	if st.BadPayload != 1 || st.NoZone != 1 || st.Readings == 0 {
		t.Errorf("stats %+v", st)
	}
	// The status goes to the sink with the batch that follows the
	// garbage, which may come after the values above.
	testutil.WaitFor(t, "the garbage payload in the device's status", func() bool {
		for _, status := range store.Statuses() {
			if status.Source == "mqtt/zigbee2mqtt/Bedroom sensor" {
				return status.Err != nil
			}
		}
		return false
	})
}

// QoS 1 subscriptions get QoS 1 messages, and a retained message that
// waited on the broker arrives marked as retained.
func TestClientQoS1AndRetained(t *testing.T) {
	_, broker := startMochi(t)
	dev := testutil.MQTTClient(t, broker, "")
	publish(t, dev, "qos/retained", 1, true, "kept")
	c := newClient(t, fastOptions(broker, "climated/test"))
	got := make(chan Message, 4)
	if err := c.Subscribe("qos/#", 1, func(m Message) { got <- m }); err != nil {
		t.Fatal(err)
	}
	runClient(t, c)
	m := recv(t, got)
	if m.Topic != "qos/retained" || !m.Retained || m.QoS != 1 || string(m.Payload) != "kept" {
		t.Errorf("retained message %+v", m)
	}
	publish(t, dev, "qos/live", 1, false, "now")
	// mochi acknowledges a publish before it delivers it, so the retained
	// message may also arrive as a live one, after the retained copy.
	for m = recv(t, got); m.Topic == "qos/retained"; m = recv(t, got) {
	}
	if m.Topic != "qos/live" || m.Retained || m.QoS != 1 {
		t.Errorf("live message %+v", m)
	}
	if err := c.Subscribe("qos/#", 0, func(Message) {}); err == nil {
		t.Error("a second subscription to the same filter was accepted")
	}
}

var _ sensors.Sink = (*recSink)(nil)
