package decode

import (
	"fmt"
	"testing"

	"github.com/climated/climated/sensors"
)

// signalLevels are levels in dBm and the status they must read on either
// Netatmo scale, whatever the source: the level without its sign (the
// catalogue's one conversion, sensors.SignalFromDBm). The same table is in
// sensors/signal_test.go and, for the hub's own Wi-Fi, sensors/hw.
var signalLevels = []struct{ dBm, want float64 }{
	{-40, 40}, {-50, 50}, {-56, 56}, {-65, 65}, {-71, 71}, {-86, 86}, {-90, 90}, {-100, 100},
}

// TestSignalEverySource decodes the same signal level from every MQTT
// source of rf_status and wifi_status and checks that it reads the same.
func TestSignalEverySource(t *testing.T) {
	type source struct {
		name, format string
		fields       []Field
		topic        string
		payload      func(dBm float64) string
		m            sensors.Measurement
		strongest    float64 // the strongest level the source can say; 0: any
	}
	sources := []source{
		{"generic wifi_status in dBm", Generic, []Field{{Measurement: sensors.WiFiStatus, Unit: "dBm"}}, "hub/wifi",
			func(d float64) string { return fmt.Sprint(d) }, sensors.WiFiStatus, 0},
		{"generic rf_status in dBm", Generic, []Field{{Measurement: sensors.RFStatus, Unit: "dBm"}}, "node/rssi",
			func(d float64) string { return fmt.Sprint(d) }, sensors.RFStatus, 0},
		{"esphome wifi_signal", ESPHome, nil, "livingroom-esp/sensor/wifi_signal/state",
			func(d float64) string { return fmt.Sprint(d) }, sensors.RFStatus, 0},
		{"tasmota Wifi.Signal", Tasmota, nil, "tele/tasmota_1A2B3C/STATE",
			func(d float64) string { return fmt.Sprintf(`{"Wifi":{"AP":1,"Signal":%g}}`, d) }, sensors.RFStatus, 0},
		// Tasmota's RSSI is the quality 2·(dBm + 100) in percent, at most
		// 100 %: it cannot say a level above −50 dBm.
		{"tasmota Wifi.RSSI in percent", Tasmota, nil, "tele/tasmota_1A2B3C/STATE",
			func(d float64) string { return fmt.Sprintf(`{"Wifi":{"AP":1,"RSSI":%g}}`, 2*(d+100)) }, sensors.RFStatus, -50},
		{"shelly wifi.rssi", Shelly, nil, "shellyplusht-b8d61a8b17cc/status/wifi",
			func(d float64) string {
				return fmt.Sprintf(`{"sta_ip":"192.168.3.183","status":"got ip","rssi":%g}`, d)
			}, sensors.RFStatus, 0},
		{"theengs rssi", Theengs, nil, "home/OMG_ESP32_BLE/BTtoMQTT/A4C138765432",
			func(d float64) string { return fmt.Sprintf(`{"id":"A4:C1:38:76:54:32","rssi":%g,"tempc":4.7}`, d) }, sensors.RFStatus, 0},
	}
	for _, src := range sources {
		dec, err := New(src.format, src.fields)
		if err != nil {
			t.Fatal(err)
		}
		for _, lv := range signalLevels {
			if src.strongest != 0 && lv.dBm > src.strongest {
				continue
			}
			t.Run(fmt.Sprintf("%s/%g dBm", src.name, lv.dBm), func(t *testing.T) {
				r := dec.Decode(src.topic, []byte(src.payload(lv.dBm)))
				var got []float64
				for _, v := range r.Values {
					if v.Measurement == src.m {
						got = append(got, v.Value)
					}
				}
				if len(got) != 1 || got[0] != lv.want {
					t.Errorf("%s = %v (problems %v), want %v", src.m, got, r.Problems, lv.want)
				}
			})
		}
	}
}

// TestSignalLQI: a zigbee link quality is not a level: it is spread over
// the rf scale's marks, 0 → 90 (low), 255 → 60 (full).
func TestSignalLQI(t *testing.T) {
	dec, err := New(Zigbee2MQTT, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ lqi, want float64 }{{0, 90}, {85, 80}, {170, 70}, {255, 60}} {
		r := dec.Decode("zigbee2mqtt/bedroom_th", []byte(fmt.Sprintf(`{"temperature":20,"linkquality":%g}`, tt.lqi)))
		var got []float64
		for _, v := range r.Values {
			if v.Measurement == sensors.RFStatus {
				got = append(got, v.Value)
			}
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("linkquality %g: rf_status = %v, want %v", tt.lqi, got, tt.want)
		}
	}
}
