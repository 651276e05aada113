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
		{file: "sen5x_pm_2_5", device: "air-quality", values: map[sensors.Measurement]float64{sensors.PM25: 4}},
		{file: "sen5x_voc", device: "air-quality", values: map[sensors.Measurement]float64{sensors.VOCIndex: 102}},
		{file: "pmsx003_pm_2_5_std", ignored: true}, // the standard-particle value
		{file: "nan", device: "outdoor-node"},       // no value now, not a fault
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

// The object ids ESPHome makes of the air-quality sensors' names (see the
// corpus: esphome sen5x_*, pmsx003_*, pm1006_old_object_id) and of the
// names people give them, and ids that must not be taken for them.
func TestESPHomeAirQualityNames(t *testing.T) {
	for id, want := range map[string]sensors.Measurement{
		"pm__1__m_weight_concentration":            sensors.PM1,
		"pm__2_5__m_weight_concentration":          sensors.PM25,
		"pm__4__m_weight_concentration":            sensors.PM4,
		"pm__10__m_weight_concentration":           sensors.PM10,
		"pm_1_0_concentration":                     sensors.PM1,
		"pm_2_5_concentration":                     sensors.PM25,
		"pm_10_0_concentration":                    sensors.PM10,
		"particulate_matter__2_5__m_concentration": sensors.PM25,
		"particulate_matter_25m_concentration":     sensors.PM25,
		"pm2_5":                                    sensors.PM25,
		"pm25":                                     sensors.PM25,
		"pm10":                                     sensors.PM10,
		"living_room_pm_2_5":                       sensors.PM25,
		"voc":                                      sensors.VOCIndex,
		"voc_index":                                sensors.VOCIndex,
		"nox":                                      sensors.NOxIndex,
		"nox_index":                                sensors.NOxIndex,
		// Not a mass concentration nor an index.
		"pm_2_5_standard_atmospher_concentration": "",
		"pm_2_5_std":               "",
		"particulate_count__0_3um": "",
		"pm_0_3":                   "",
		"pm25_aqi":                 "",
		"tvoc":                     "",
		"breath_voc_equivalent":    "",
		"voc_raw":                  "",
		"fan_rpm":                  "",
	} {
		m, _, ok := esphomeGuess(id)
		if m != want || ok != (want != "") {
			t.Errorf("%s: %q, %v; want %q", id, m, ok, want)
		}
	}
}

func FuzzESPHome(f *testing.F) { fuzzFormat(f, ESPHome, nil) }
