package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/clienttest"
	"github.com/climated/climated/mqtt/internal/mqtttest"
	"github.com/climated/climated/sensors"
)

// recorded reads a payload recorded in mqtt/decode/testdata: topic, payload.
func recorded(t testing.TB, format, name string) (string, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "decode", "testdata", format, name+".msg"))
	if err != nil {
		t.Fatal(err)
	}
	topic, payload, _ := bytes.Cut(data, []byte("\n"))
	return string(topic), string(payload)
}

// Device payloads of every format travel through a real broker into a
// real history store and show up in get_climate.
func TestIngestThroughBrokerIntoHistory(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	store := openStore(t)
	dev := testutil.MQTTClient(t, broker, "")

	// A retained state waiting on the broker before the hub starts.
	topic, payload := recorded(t, "zigbee2mqtt", "aqara_weather")
	mqtttest.Publish(t, dev, topic, 1, true, payload)

	c := clienttest.New(t, clienttest.FastOptions(broker, "climated/test"))
	in, err := New(c, []Mapping{
		{Topic: "zigbee2mqtt/#", Format: "zigbee2mqtt", Devices: map[string]string{"Bedroom sensor": "Bedroom"}},
		{Topic: "tele/+/+", Format: "tasmota", Devices: map[string]string{"tasmota_1A2B3C": "Indoor"}},
		{Topic: "livingroom-esp/#", Format: "esphome", Zone: "Living room"},
		{Topic: "shellyhtg3-84fce63ad204/#", Format: "shelly", Zone: "Bathroom"},
		{Topic: "home/+/BTtoMQTT/+", Format: "theengs", AutoZone: true},
		{Topic: "rtl_433/+/events", Format: "rtl_433", Devices: map[string]string{"Fineoffset-WH24/140": "Garden"}},
	}, &Options{Logger: mqtttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	clienttest.Run(t, c)
	runIngest(t, in, store)
	for _, topic := range []string{"zigbee2mqtt/x", "tele/x/SENSOR", "livingroom-esp/status", "shellyhtg3-84fce63ad204/online", "home/x/BTtoMQTT/x", "rtl_433/pi/events"} {
		mqtttest.WaitSubscribed(t, srv, topic)
	}

	for _, m := range [][2]string{
		{"tasmota", "bme280"}, {"tasmota", "state_wifi"},
		{"esphome", "temperature"}, {"esphome", "humidity"}, {"esphome", "wifi_signal"},
		{"shelly", "temperature"}, {"shelly", "humidity"}, {"shelly", "devicepower"},
		{"theengs", "lywsd03mmc_atc"}, {"theengs", "beacon"},
		{"rtl_433", "fineoffset_wh24"},
	} {
		topic, payload := recorded(t, m[0], m[1])
		mqtttest.Publish(t, dev, topic, 1, false, payload)
	}
	// Garbage on a device's topic changes nothing.
	mqtttest.Publish(t, dev, "zigbee2mqtt/Bedroom sensor", 1, false, `{"temperature":-300,"humidity":`)
	// The rain gauge's counter moves on by 0.3 mm.
	mqtttest.Publish(t, dev, "rtl_433/pi/events", 1, false, `{"model":"Fineoffset-WH24","id":140,"battery_ok":1,"temperature_C":6.4,"humidity":88,"rain_mm":123.7}`)

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

var _ sensors.Sink = (*recSink)(nil)
