package hw

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/sensirion"
)

// Recorded or datasheet traffic of each chip, from open to one reading.
var (
	// Bosch's worked example (BMP280 datasheet, section 3.12): dig_T1…
	// dig_P9 = 27504, 26435, −1000, 36477, −10685, 3024, 2855, 140, −7,
	// 15500, −14600, 6000; adc_T = 519888, adc_P = 415148 → 25.08 °C and
	// 100653.27 Pa (the 64-bit integer formula: 25767236 / 256 Pa).
	bmp280Example = []i2ctest.IO{
		wr([]byte{0xD0}, 0x58), // climated's chip-ID check
		wr([]byte{0xD0}, 0x58), // periph's
		wr([]byte{0x88}, 0x70, 0x6B, 0x43, 0x67, 0x18, 0xFC, 0x7D, 0x8E, 0x43, 0xD6, 0xD0, 0x0B,
			0x27, 0x0B, 0x8C, 0x00, 0xF9, 0xFF, 0x8C, 0x3C, 0xF8, 0xC6, 0x70, 0x17, 0x00, 0x00),
		w(0xF4, 0x6C, 0xF5, 0xA0, 0xF4, 0x6C), // sleep, standby 1 s, ×4 oversampling
		w(0xF4, 0x6D),                         // forced measurement
		wr([]byte{0xF3}, 0x00),                // idle
		wr([]byte{0xF7}, 0x65, 0x5A, 0xC0, 0x7E, 0xED, 0x00),
	}
	// A BME280 as periph's tests recorded it: 23.72 °C, 1009.42695 hPa, 65.3056 %.
	bme280Recorded = []i2ctest.IO{
		wr([]byte{0xD0}, 0x60),
		wr([]byte{0xD0}, 0x60),
		wr([]byte{0x88}, 0x10, 0x6e, 0x6c, 0x66, 0x32, 0x0, 0x5d, 0x95, 0xb8, 0xd5, 0xd0, 0xb, 0x77, 0x1e, 0x9d, 0xff, 0xf9, 0xff, 0xac, 0x26, 0xa, 0xd8, 0xbd, 0x10, 0x0, 0x4b),
		wr([]byte{0xE1}, 0x6e, 0x1, 0x0, 0x13, 0x5, 0x0, 0x1e),
		w(0xF4, 0x6C, 0xF2, 0x03, 0xF5, 0xA0, 0xF4, 0x6C),
		w(0xF4, 0x6D),
		wr([]byte{0xF3}, 0x08), // busy
		wr([]byte{0xF3}, 0x00),
		wr([]byte{0xF7}, 0x4a, 0x52, 0xc0, 0x80, 0x96, 0xc0, 0x7a, 0x76),
	}
	// SHT3x: status, then 0x6666 (25 °C) and 0x8000 (50.00076 %RH).
	sht3xOps = []i2ctest.IO{
		w(0xF3, 0x2D), r(0x80, 0x10, 0xE1),
		w(0x24, 0x00), r(0x66, 0x66, 0x93, 0x80, 0x00, 0xA2),
	}
	// SCD4x started, one data-ready "no", then a measurement as periph's
	// tests recorded it: 556 ppm, 25.447 °C, 30.09 %. Every command is
	// a write of its own and its answer a separate read (datasheet 3.3).
	scd4xOps = []i2ctest.IO{
		w(0x36, 0xF6),                      // wake up
		w(0x21, 0xB1),                      // start periodic measurement
		w(0xE4, 0xB8), r(0x80, 0x00, 0xA2), // not ready
		w(0xE4, 0xB8), r(0x80, 0x06, 0x04), // ready
		w(0xEC, 0x05), r(0x02, 0x2C, 0xA3, 0x67, 0x0D, 0x36, 0x4D, 0x08, 0xF1),
	}
)

func TestReadOnceChips(t *testing.T) {
	aht := []byte{0x1C, 0x80, 0x00, 0x06, 0x00, 0x00} // 50 %RH, 25 °C
	aht = append(aht, sensirion.CRC8(aht))
	am := []byte{0x03, 0x04, 0x01, 0xF4, 0x00, 0xFA} // 50.0 %RH, 25.0 °C
	amCRC := crc16Modbus(am)
	am = append(am, byte(amCRC), byte(amCRC>>8))
	tests := []struct {
		name string
		cfg  SensorConfig
		ops  []i2ctest.IO
		want map[sensors.Measurement]float64
	}{
		{"bmp280 datasheet example", SensorConfig{Chip: "bmp280"}, bmp280Example, map[sensors.Measurement]float64{
			sensors.Temperature: 25.08, sensors.AbsolutePressure: 1006.533, sensors.Pressure: SeaLevelPressure(1006.53265625, 120)}},
		{"bme280 recorded", SensorConfig{Chip: "bme280"}, bme280Recorded, map[sensors.Measurement]float64{
			sensors.Temperature: 23.72, sensors.Humidity: 65.31, sensors.AbsolutePressure: 1009.427, sensors.Pressure: SeaLevelPressure(1009.42695, 120)}},
		{"sht31 with offsets", SensorConfig{Chip: "sht31", Offsets: Offsets{Temperature: -0.5, Humidity: 2}}, sht3xOps, map[sensors.Measurement]float64{
			sensors.Temperature: 24.5, sensors.Humidity: 52}},
		{"sht4x", SensorConfig{Chip: "sht41"}, []i2ctest.IO{
			w(0x89), r(0x1A, 0x2B, 0x6D, 0x3C, 0x4D, 0xF6),
			w(0xFD), r(0x66, 0x66, 0x93, 0x66, 0x66, 0x93),
		}, map[sensors.Measurement]float64{sensors.Temperature: 25, sensors.Humidity: 44}},
		{"scd30 datasheet example", SensorConfig{Chip: "scd30"}, []i2ctest.IO{
			w(0xD1, 0x00), r(0x03, 0x42, 0xF3),
			w(0x46, 0x00), r(0x00, 0x02, 0xE3),
			w(0x51, 0x02), r(0x00, 0x00, 0x81),
			w(0x51, 0x02, 0x00, 0x78, 0xC0), // altitude 120 m
			w(0x00, 0x10, 0x00, 0x00, 0x81),
			w(0x02, 0x02), r(0x00, 0x01, 0xB0),
			w(0x03, 0x00), r(0x43, 0xDB, 0xCB, 0x8C, 0x2E, 0x8F, 0x41, 0xD9, 0x70, 0xE7, 0xFF, 0xF5, 0x42, 0x43, 0xBF, 0x3A, 0x1B, 0x74),
		}, map[sensors.Measurement]float64{sensors.CO2: 439.1, sensors.Temperature: 27.238, sensors.Humidity: 48.81}},
		{"scd41", SensorConfig{Chip: "scd41"}, scd4xOps, map[sensors.Measurement]float64{
			sensors.CO2: 556, sensors.Temperature: 25.447, sensors.Humidity: 30.09}},
		{"aht20", SensorConfig{Chip: "aht20"}, []i2ctest.IO{
			wr([]byte{0x71}, 0x18), // calibrated: no initialisation
			w(0xAC, 0x33, 0x00), r(aht...),
		}, map[sensors.Measurement]float64{sensors.Temperature: 25, sensors.Humidity: 50}},
		{"hdc3022", SensorConfig{Chip: "hdc3022"}, []i2ctest.IO{
			wr([]byte{0x37, 0x81}, 0x30, 0x00, 0x33), // Texas Instruments
			w(0x21, 0x30),                            // 1 Hz continuous
			wr([]byte{0xE0, 0x00}, 0x66, 0x66, 0x93, 0x80, 0x00, 0xA2),
		}, map[sensors.Measurement]float64{sensors.Temperature: 25, sensors.Humidity: 50}},
		{"mcp9808", SensorConfig{Chip: "mcp9808"}, []i2ctest.IO{
			wr([]byte{0x06}, 0x00, 0x54), wr([]byte{0x07}, 0x04, 0x00),
			w(0x08, 0x03), w(0x01, 0x00, 0x00),
			wr([]byte{0x05}, 0x01, 0x90), // 400 × 0.0625 °C
		}, map[sensors.Measurement]float64{sensors.Temperature: 25}},
		{"tmp102", SensorConfig{Chip: "tmp102"}, []i2ctest.IO{
			wr([]byte{0x01}, 0x60, 0xA0), w(0x01, 0x60, 0xA0),
			wr([]byte{0x00}, 0x19, 0x00), // 400 × 0.0625 °C
		}, map[sensors.Measurement]float64{sensors.Temperature: 25}},
		{"am2320", SensorConfig{Chip: "am2320"}, []i2ctest.IO{
			w(0x00), wr([]byte{0x03, 0x00, 0x04}, am...),
		}, map[sensors.Measurement]float64{sensors.Temperature: 25, sensors.Humidity: 50}},
		{"ccs811 estimated", SensorConfig{Chip: "ccs811"}, []i2ctest.IO{
			wr([]byte{0x20}, 0x81), w(0xF4), w(0x01, 0x10),
			wr([]byte{0x02}, 0x01, 0xF4, 0x00, 0x20, 0x98, 0x00, 0x00, 0x00),
		}, map[sensors.Measurement]float64{sensors.CO2: 500}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tt.cfg.Zone = "Indoor"
				c := lookupChip(tt.cfg.Chip)
				m, open := mux(map[uint16]*i2cfake.Bus{c.addrs[0]: chipFor(c.name, c.addrs[0], tt.ops...)})
				s := newSource(t, Config{Altitude: 120, Sensors: []SensorConfig{tt.cfg}}, open, nil)
				rs, err := s.ReadOnce(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				got := make(map[sensors.Measurement]float64)
				for _, r := range rs {
					got[r.Measurement] = r.Value
					if r.Zone != "Indoor" || r.Source != s.specs[0].name {
						t.Errorf("reading %+v: want zone Indoor, source %s", r, s.specs[0].name)
					}
				}
				for m, v := range tt.want {
					if g, ok := got[m]; !ok || math.Abs(g-v) > 0.006 {
						t.Errorf("%s = %v (present %t), want %v", m, g, ok, v)
					}
				}
				if len(got) != len(tt.want) {
					t.Errorf("got %v, want %v", got, tt.want)
				}
				if err := m.Close(); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func TestReadOnceDS18B20(t *testing.T) {
	dir := t.TempDir()
	const id = "28-0316a2791fff"
	if err := os.Mkdir(filepath.Join(dir, id), 0o755); err != nil {
		t.Fatal(err)
	}
	data := "72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125\n"
	if err := os.WriteFile(filepath.Join(dir, id, "w1_slave"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Sensors: []SensorConfig{{Zone: "Balcony", Chip: "ds18b20", Device: id, Offsets: Offsets{Temperature: 0.1}}}, WiFi: WiFiConfig{Disabled: true}}
	s, err := New(cfg, &Options{W1Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := s.ReadOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Value != 23.225 || rs[0].Source != "w1/"+id || rs[0].Zone != "Balcony" {
		t.Errorf("readings = %+v, want 23.225 °C from w1/%s in Balcony", rs, id)
	}
}
