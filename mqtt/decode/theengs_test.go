package decode

import (
	"testing"

	"github.com/climated/climated/sensors"
)

func TestTheengs(t *testing.T) {
	checkCases(t, Theengs, nil, []want{
		{file: "lywsd03mmc_atc", device: "A4C138AABBCC", values: map[sensors.Measurement]float64{
			sensors.Temperature: 22.4, sensors.Humidity: 48, sensors.BatteryPercent: 87,
			sensors.BatteryVoltage: 2960, sensors.RFStatus: 71,
		}},
		{file: "govee_h5075", device: "A4C138765432", values: map[sensors.Measurement]float64{
			sensors.Temperature: 4.7, sensors.Humidity: 83.4, sensors.BatteryPercent: 62, sensors.RFStatus: 84,
		}},
		{file: "aranet4", device: "D0A1B2C3D4E5", values: map[sensors.Measurement]float64{
			sensors.CO2: 734, sensors.Temperature: 21.95, sensors.Humidity: 39,
			sensors.AbsolutePressure: 1002.3, sensors.BatteryPercent: 92, sensors.RFStatus: 66,
		}},
		{file: "beacon", device: "45E174126E00", values: map[sensors.Measurement]float64{sensors.RFStatus: 89}},
		{file: "gateway_lwt", ignored: true},
		{file: "id_in_payload", device: "A4C138AABBCC", values: map[sensors.Measurement]float64{
			sensors.Temperature: 22.5, sensors.Humidity: 48, sensors.BatteryPercent: 87,
			sensors.BatteryVoltage: 2950, sensors.RFStatus: 70,
		}},
		{file: "bad_values", device: "A4C138AABBCC", problems: 2, values: map[sensors.Measurement]float64{
			sensors.Humidity: 48, sensors.BatteryPercent: 87, sensors.RFStatus: 71,
		}},
	})
}

func FuzzTheengs(f *testing.F) { fuzzFormat(f, Theengs, nil) }
