package decode

import (
	"testing"

	"github.com/climated/climated/sensors"
)

func TestRTL433(t *testing.T) {
	const wh24, acurite = "Fineoffset-WH24/140", "Acurite-5n1/C/1776"
	checkCases(t, RTL433, nil, []want{
		{file: "fineoffset_wh24", device: wh24, rain: 123.4, values: map[sensors.Measurement]float64{
			sensors.Temperature: 6.3, sensors.Humidity: 88, sensors.BatteryPercent: 100,
			// 1 m/s is 3.6 km/h exactly; uvi is the index, uv a raw count.
			sensors.WindAngle: 225, sensors.WindStrength: 1.12 * 3.6, sensors.GustStrength: 2.24 * 3.6, sensors.UV: 0,
		}},
		{file: "acurite_5n1_rain", device: acurite, rain: 394.72, values: map[sensors.Measurement]float64{
			sensors.BatteryPercent: 100, sensors.WindStrength: 3.5, sensors.WindAngle: 22.5,
		}},
		{file: "acurite_5n1_temp", device: acurite, values: map[sensors.Measurement]float64{
			sensors.Temperature: 11.72, sensors.Humidity: 99, sensors.BatteryPercent: 0, sensors.WindStrength: 0,
		}},
		{file: "nexus_th", device: "Nexus-TH/1/35", values: map[sensors.Measurement]float64{
			sensors.Temperature: 15, sensors.Humidity: 99, sensors.BatteryPercent: 100,
		}},
		{file: "device_field", device: wh24, values: map[sensors.Measurement]float64{sensors.Temperature: 6.3}},
		{file: "device_rain", device: wh24, rain: 123.7},
		{file: "device_wind", device: wh24, values: map[sensors.Measurement]float64{sensors.WindAngle: 225}},
		{file: "device_other", ignored: true},
		{file: "states", ignored: true},
		{file: "impossible_values", device: wh24, problems: 3, values: map[sensors.Measurement]float64{sensors.Humidity: 88}},
		{file: "no_model", err: true},
	})
}

func FuzzRTL433(f *testing.F) { fuzzFormat(f, RTL433, nil) }
