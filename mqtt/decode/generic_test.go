package decode

import (
	"testing"

	"github.com/climated/climated/sensors"
)

var stationFields = []Field{
	{Measurement: sensors.Temperature, Path: "sensors.0.t"},
	{Measurement: sensors.Humidity, Path: "sensors.0.rh"},
	{Measurement: sensors.Pressure, Path: "env.press_inhg", Unit: "inHg"},
	{Measurement: sensors.Rain, Path: "env.rain_total_in", Unit: "in", Counter: true},
}

func TestGeneric(t *testing.T) {
	checkCases(t, Generic, []Field{{Measurement: sensors.Temperature, Unit: "°F"}}, []want{
		{file: "plain_fahrenheit", device: "home/attic/temperature", values: map[sensors.Measurement]float64{sensors.Temperature: 18}},
		{file: "nested_json", device: "weather/station", problems: 1},
	})
	checkCases(t, Generic, stationFields, []want{
		{file: "nested_json", device: "weather/station", rain: 31.75, values: map[sensors.Measurement]float64{
			sensors.Temperature: 21.5, sensors.Humidity: 40, sensors.Pressure: 1013.21,
		}},
		{file: "not_json", device: "weather/station", err: true},
		{file: "plain_fahrenheit", device: "home/attic/temperature", err: true},
	})
}

func FuzzGeneric(f *testing.F) { fuzzFormat(f, Generic, stationFields) }
