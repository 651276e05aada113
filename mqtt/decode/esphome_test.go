package decode

import (
	"testing"

	"github.com/climated/climated/sensors"
)

func TestESPHome(t *testing.T) {
	checkCases(t, ESPHome, nil, []want{
		{file: "temperature", device: "livingroom-esp", values: map[sensors.Measurement]float64{sensors.Temperature: 21.62}},
		{file: "humidity", device: "livingroom-esp", values: map[sensors.Measurement]float64{sensors.Humidity: 47.3}},
		{file: "pressure", device: "livingroom-esp", values: map[sensors.Measurement]float64{sensors.AbsolutePressure: 1004.7}},
		{file: "wifi_signal", device: "livingroom-esp", values: map[sensors.Measurement]float64{sensors.RFStatus: 63}},
		{file: "battery_voltage", device: "outdoor-node", values: map[sensors.Measurement]float64{sensors.BatteryVoltage: 3710}},
		{file: "co2", device: "office", values: map[sensors.Measurement]float64{sensors.CO2: 845}},
		{file: "nan", device: "outdoor-node"}, // no value now, not a fault
		{file: "status", device: "livingroom-esp", avail: Online},
		{file: "binary_sensor", ignored: true},
		{file: "internal_temperature", ignored: true},
	})
}

// A field names a sensor whose name says nothing, with its unit.
func TestESPHomeField(t *testing.T) {
	checkCases(t, ESPHome, []Field{{Measurement: sensors.Temperature, Path: "living_room_temperature", Unit: "°F"}}, []want{
		{file: "temperature", device: "livingroom-esp", values: map[sensors.Measurement]float64{sensors.Temperature: -5.77}},
		{file: "humidity", device: "livingroom-esp", values: map[sensors.Measurement]float64{sensors.Humidity: 47.3}},
	})
}

func FuzzESPHome(f *testing.F) { fuzzFormat(f, ESPHome, nil) }
