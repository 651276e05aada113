package decode

import (
	"testing"

	"github.com/climated/climated/sensors"
)

func TestTasmota(t *testing.T) {
	checkCases(t, Tasmota, nil, []want{
		{file: "bme280", device: "tasmota_1A2B3C", values: map[sensors.Measurement]float64{
			sensors.Temperature: 21.3, sensors.Humidity: 44.8, sensors.AbsolutePressure: 1003.4,
		}},
		{file: "fahrenheit_mmhg", device: "garage", values: map[sensors.Measurement]float64{
			sensors.Temperature: 21.28, sensors.Humidity: 40.1,
			sensors.AbsolutePressure: 1003.38, sensors.Pressure: 1014.85,
		}},
		{file: "three_chips", device: "kitchen", values: map[sensors.Measurement]float64{
			sensors.Temperature: 22.1, sensors.Humidity: 51, sensors.CO2: 734,
		}, probes: map[string]map[sensors.Measurement]float64{
			"DS18B20": {sensors.Temperature: 5.6}, "MHZ19B": {sensors.Temperature: 24},
		}},
		// Air quality (corpus: tasmota sen5x_format, status_pms5003_htu21,
		// sds0x1_format, sps30_format): SEN5X's VOC and NOx are Sensirion's indices; the
		// PMS5003's PMx are taken, its CFx and PBx are not.
		{file: "sen5x", device: "sen55", values: map[sensors.Measurement]float64{
			sensors.PM1: 3.1, sensors.PM25: 4, sensors.PM4: 4.4, sensors.PM10: 4.6,
			sensors.VOCIndex: 102, sensors.NOxIndex: 1, sensors.Temperature: 22.4, sensors.Humidity: 45.2,
		}},
		{file: "pms5003_htu21", device: "pms5003", values: map[sensors.Measurement]float64{
			sensors.Temperature: 24.7, sensors.Humidity: 32.1, sensors.PM1: 1, sensors.PM25: 2, sensors.PM10: 2,
		}},
		{file: "sps30", device: "sps30", values: map[sensors.Measurement]float64{
			sensors.PM1: 2.41, sensors.PM25: 2.55, sensors.PM4: 2.55, sensors.PM10: 2.55,
		}},
		// A Sonoff NSPanel's room sensor is an NTC on its ADC
		// (smarthomeNG's nspanel plugin, __init__.py, quotes this
		// payload); the ESP32's own temperature stays out. With two
		// thermistors the lowest-numbered one is the device's; the raw A0
		// and the illuminance are not read.
		{file: "nspanel", device: "NSPanel1", values: map[sensors.Measurement]float64{sensors.Temperature: 27.4}},
		{file: "analog_two", device: "sonoff_th", values: map[sensors.Measurement]float64{sensors.Temperature: 19.6}},
		{file: "sds0x1", device: "dust", values: map[sensors.Measurement]float64{sensors.PM25: 7.3, sensors.PM10: 12.9}},
		{file: "state_wifi", device: "tasmota_1A2B3C", values: map[sensors.Measurement]float64{sensors.RFStatus: 65}},
		{file: "lwt_offline", device: "tasmota_1A2B3C", avail: Offline},
		{file: "info_ignored", ignored: true},
		// A null is no value in this message, not a fault.
		{file: "sensor_error", device: "tasmota_1A2B3C",
			values: map[sensors.Measurement]float64{sensors.Humidity: 45}},
	})
}

// A field picks the outdoor probe of a multi-chip device.
func TestTasmotaFieldPicksChip(t *testing.T) {
	checkCases(t, Tasmota, []Field{{Measurement: sensors.Temperature, Path: "DS18B20.Temperature"}}, []want{
		{file: "three_chips", device: "kitchen", values: map[sensors.Measurement]float64{
			sensors.Temperature: 5.6, sensors.Humidity: 51, sensors.CO2: 734,
		}},
	})
}

func FuzzTasmota(f *testing.F) { fuzzFormat(f, Tasmota, nil) }
