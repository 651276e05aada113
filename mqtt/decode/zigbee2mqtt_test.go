package decode

import (
	"testing"

	"github.com/climated/climated/sensors"
)

func TestZigbee2MQTT(t *testing.T) {
	checkCases(t, Zigbee2MQTT, nil, []want{
		{file: "aqara_weather", device: "Bedroom sensor", values: map[sensors.Measurement]float64{
			sensors.Temperature: 20.91, sensors.Humidity: 52.63, sensors.AbsolutePressure: 1009.8,
			sensors.BatteryPercent: 91, sensors.BatteryVoltage: 2985, sensors.RFStatus: 79.76,
		}},
		{file: "sonoff_string_numbers", device: "hallway/th", values: map[sensors.Measurement]float64{
			sensors.Temperature: 19.4, sensors.Humidity: 48.6, sensors.BatteryPercent: 100,
			sensors.BatteryVoltage: 3000, sensors.RFStatus: 71.65,
		}},
		{file: "tuya_air_quality", device: "office_air", values: map[sensors.Measurement]float64{
			sensors.CO2: 612, sensors.Humidity: 41.3, sensors.Temperature: 22.7, sensors.RFStatus: 75.88,
		}},
		// Air quality (corpus: zigbee2mqtt ikea_vindstyrka_exposes,
		// aqara_tvoc_voc_ppb): voc_index is Sensirion's index, a plain voc
		// a concentration in ppb that is not read.
		{file: "vindstyrka", device: "Vindstyrka", values: map[sensors.Measurement]float64{
			sensors.Temperature: 22, sensors.Humidity: 48, sensors.PM25: 3, sensors.VOCIndex: 107, sensors.RFStatus: 60,
		}},
		{file: "aqara_tvoc", device: "airquality/livingroom", values: map[sensors.Measurement]float64{
			sensors.Temperature: 20.67, sensors.Humidity: 42.04, sensors.BatteryPercent: 100,
			sensors.BatteryVoltage: 3037, sensors.RFStatus: 77.18,
		}},
		{file: "availability_v2", device: "hallway/th", avail: Online},
		{file: "availability_v1", device: "Bedroom sensor", avail: Offline},
		{file: "bridge_state", ignored: true},
		// Three impossible values; the null voltage is no value, not a fault.
		{file: "impossible_values", device: "broken", problems: 3,
			values: map[sensors.Measurement]float64{sensors.BatteryPercent: 87}},
		{file: "truncated", device: "Bedroom sensor", err: true},
	})
}

func FuzzZigbee2MQTT(f *testing.F) { fuzzFormat(f, Zigbee2MQTT, nil) }
