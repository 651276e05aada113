package decode

import (
	"testing"

	"github.com/climated/climated/sensors"
)

func TestShelly(t *testing.T) {
	const g3, plus = "shellyhtg3-84fce63ad204", "shellyplusht-b8d61a8b17cc"
	checkCases(t, Shelly, nil, []want{
		{file: "temperature", device: g3, values: map[sensors.Measurement]float64{sensors.Temperature: 21.6}},
		{file: "humidity", device: g3, values: map[sensors.Measurement]float64{sensors.Humidity: 54.2}},
		{file: "devicepower", device: g3, values: map[sensors.Measurement]float64{
			sensors.BatteryPercent: 91, sensors.BatteryVoltage: 5920,
		}},
		// On USB power: no battery values.
		{file: "full_status_usb", device: plus, values: map[sensors.Measurement]float64{
			sensors.Temperature: 19.8, sensors.Humidity: 42.2, sensors.RFStatus: 62,
		}},
		{file: "notify_status", device: plus, values: map[sensors.Measurement]float64{sensors.Temperature: 22.3}},
		{file: "notify_event", ignored: true},
		{file: "online_false", device: g3, avail: Offline},
		{file: "sensor_error", device: g3, problems: 1}, // null values, and the errors that say why
	})
}

func FuzzShelly(f *testing.F) { fuzzFormat(f, Shelly, nil) }
