package decode

import (
	"testing"

	"github.com/climated/climated/sensors"
)

// TestBatteryModel: an MQTT device's chemistry is unknown, so the
// catalogue's battery model (sensors/battery.go) leaves out what the
// device does not report: no level from a voltage, no voltage from a level.
func TestBatteryModel(t *testing.T) {
	for _, tt := range []struct {
		format, topic, payload string
		want                   map[sensors.Measurement]float64
	}{
		{Zigbee2MQTT, "zigbee2mqtt/th", `{"temperature":20,"voltage":2900}`, map[sensors.Measurement]float64{sensors.BatteryVoltage: 2900}},
		{Zigbee2MQTT, "zigbee2mqtt/th", `{"temperature":20,"battery":80}`, map[sensors.Measurement]float64{sensors.BatteryPercent: 80}},
		{Theengs, "home/OMG_ESP32_BLE/BTtoMQTT/A4C138765432", `{"id":"A4:C1:38:76:54:32","tempc":20,"volt":2.9}`, map[sensors.Measurement]float64{sensors.BatteryVoltage: 2900}},
		{Theengs, "home/OMG_ESP32_BLE/BTtoMQTT/A4C138765432", `{"id":"A4:C1:38:76:54:32","tempc":20,"batt":62}`, map[sensors.Measurement]float64{sensors.BatteryPercent: 62}},
	} {
		dec, err := New(tt.format, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := dec.Decode(tt.topic, []byte(tt.payload))
		got := map[sensors.Measurement]float64{}
		for _, v := range r.Values {
			if v.Measurement == sensors.BatteryVoltage || v.Measurement == sensors.BatteryPercent {
				got[v.Measurement] = v.Value
			}
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s %s: battery %v, want %v", tt.format, tt.payload, got, tt.want)
			continue
		}
		for m, w := range tt.want {
			if got[m] != w {
				t.Errorf("%s %s: %s = %v, want %v", tt.format, tt.payload, m, got[m], w)
			}
		}
	}
}
