package hw

import (
	"math"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

func TestConfigYAML(t *testing.T) {
	const doc = `
altitude: 120
interval: 30s
sensors:
  - {zone: Indoor, chip: BME280, address: 0x77, offsets: {pressure: 0.4}}
  - zone: Indoor
    chip: scd41
    interval: 10s
    offsets: {temperature: -1.5, humidity: 3}
    provides: [CO2]
  - {zone: Balcony, chip: ds18b20, device: 28-0316a2791fff}
  - {zone: Cellar, chip: ds18b20, bridge: 0x1c, channel: 3, device: 28-0417c1b2e3ff}
  - {zone: Indoor, chip: SGP30}
wifi: {interface: wlan0}
`
	var c Config
	dec := yaml.NewDecoder(strings.NewReader(doc))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c = c.WithDefaults()
	s0, s1, s2 := c.Sensors[0], c.Sensors[1], c.Sensors[2]
	if s0.Chip != "bme280" || s0.Address != 0x77 || s0.Bus != "1" || s0.Interval != 30*time.Second || s0.Offsets.Pressure != 0.4 {
		t.Errorf("sensors[0] = %+v", s0)
	}
	if s1.Chip != "scd4x" || s1.Address != 0x62 || s1.Interval != 10*time.Second || s1.Offsets.Temperature != -1.5 || len(s1.Provides) != 1 {
		t.Errorf("sensors[1] = %+v", s1)
	}
	if s2.Bus != "w1" || s2.Device != "28-0316a2791fff" {
		t.Errorf("sensors[2] = %+v", s2)
	}
	if s3 := c.Sensors[3]; s3.Bus != "1" || s3.Bridge != 0x1c || s3.Channel != 3 || s3.Address != 0 || s3.Device != "28-0417c1b2e3ff" {
		t.Errorf("sensors[3] = %+v", s3)
	}
	if s4 := c.Sensors[4]; s4.Chip != "sgp30" || s4.Address != 0x58 || s4.Bus != "1" || s4.Interval != 30*time.Second {
		t.Errorf("sensors[4] = %+v", s4)
	}
	if c.WiFi.Zone != "Indoor" || c.WiFi.Interface != "wlan0" || c.WiFi.Interval != time.Minute || c.StaleAfter != 3 {
		t.Errorf("defaults: %+v", c)
	}
}

func TestConfigValidate(t *testing.T) {
	ok := SensorConfig{Zone: "Indoor", Chip: "bme280"}
	with := func(f func(*SensorConfig)) Config {
		s := ok
		f(&s)
		return Config{Sensors: []SensorConfig{s}}
	}
	tests := []struct {
		name string
		cfg  Config
		want string // "" for valid
	}{
		{"valid", with(func(*SensorConfig) {}), ""},
		{"empty", Config{}, ""},
		{"altitude", Config{Altitude: 12000}, "altitude: 12000 m"},
		{"interval", Config{Interval: time.Millisecond}, "interval: 1ms"},
		{"stale_after", Config{StaleAfter: 1}, "stale_after: 1"},
		{"zone", with(func(s *SensorConfig) { s.Zone = " " }), "sensors[0].zone: empty"},
		{"no chip", with(func(s *SensorConfig) { s.Chip = "" }), "sensors[0].chip: empty"},
		{"unknown chip", with(func(s *SensorConfig) { s.Chip = "bme680" }), `sensors[0].chip: unknown chip "bme680"`},
		{"address", with(func(s *SensorConfig) { s.Address = 0x44 }), "sensors[0].address: 0x44 is not an address of the bme280 (0x76, 0x77)"},
		{"bus", with(func(s *SensorConfig) { s.Bus = "usb" }), `sensors[0].bus: bus "usb"`},
		{"too fast", with(func(s *SensorConfig) { s.Chip, s.Interval = "scd41", 2*time.Second }), "sensors[0].interval: 2s: the scd4x measures at most every 5s"},
		{"temperature offset", with(func(s *SensorConfig) { s.Offsets.Temperature = 25 }), "sensors[0].offsets.temperature: 25 °C"},
		{"humidity offset", with(func(s *SensorConfig) { s.Offsets.Humidity = -60 }), "sensors[0].offsets.humidity"},
		{"pressure offset", with(func(s *SensorConfig) { s.Offsets.Pressure = 99 }), "sensors[0].offsets.pressure"},
		{"provides", with(func(s *SensorConfig) { s.Provides = []sensors.Measurement{sensors.CO2} }), `sensors[0].provides[0]: the bme280 does not measure "CO2"`},
		// The SEN5x variants (datasheet "SEN5x" v2, March 2022, section 1;
		// sensors/sen5x decodes them so): the SEN50 measures particulate
		// matter only, the SEN54 adds humidity, temperature and the VOC
		// index, the SEN55 the NOx index too.
		{"sen50 temperature", with(func(s *SensorConfig) {
			s.Chip, s.Address, s.Provides = "sen50", 0, []sensors.Measurement{sensors.PM25, sensors.Temperature}
		}),
			`sensors[0].provides[1]: the sen50 does not measure "Temperature" (it measures [PM1 PM25 PM4 PM10])`},
		{"sen50 humidity", with(func(s *SensorConfig) {
			s.Chip, s.Address, s.Provides = "SEN50", 0, []sensors.Measurement{sensors.Humidity}
		}),
			`sensors[0].provides[0]: the sen50 does not measure "Humidity"`},
		{"sen50 temperature offset", with(func(s *SensorConfig) { s.Chip, s.Address, s.Offsets.Temperature = "sen50", 0, -1.5 }),
			"sensors[0].offsets.temperature: the sen50 does not measure Temperature (it measures [PM1 PM25 PM4 PM10])"},
		{"sen50 humidity offset", with(func(s *SensorConfig) { s.Chip, s.Address, s.Offsets.Humidity = "sen50", 0, 3 }),
			"sensors[0].offsets.humidity: the sen50 does not measure Humidity"},
		{"sen54 NOx", with(func(s *SensorConfig) {
			s.Chip, s.Address, s.Provides = "sen54", 0, []sensors.Measurement{sensors.NOxIndex}
		}),
			`sensors[0].provides[0]: the sen54 does not measure "NOxIndex"`},
		{"sen54 temperature", with(func(s *SensorConfig) {
			s.Chip, s.Address, s.Provides, s.Offsets.Temperature = "sen54", 0, []sensors.Measurement{sensors.Temperature, sensors.VOCIndex}, -1
		}), ""},
		{"sen55 NOx", with(func(s *SensorConfig) {
			s.Chip, s.Address, s.Provides = "sen55", 0, []sensors.Measurement{sensors.NOxIndex}
		}), ""},
		{"sen5x, any variant", with(func(s *SensorConfig) {
			s.Chip, s.Address, s.Provides = "sen5x", 0, []sensors.Measurement{sensors.Humidity}
		}), ""},
		{"pressure offset of a chip without pressure", with(func(s *SensorConfig) { s.Chip, s.Address, s.Offsets.Pressure = "sht31", 0, 2 }),
			"sensors[0].offsets.pressure: the sht3x does not measure AbsolutePressure"},
		{"ds18b20 device", with(func(s *SensorConfig) { s.Chip, s.Device = "ds18b20", "28-xyz" }), `sensors[0].device: "28-xyz"`},
		{"ds18b20 bus", with(func(s *SensorConfig) { s.Chip, s.Device, s.Bus = "ds18b20", "28-0316a2791fff", "1" }), `sensors[0].bus: "1"`},
		{"device on i2c", with(func(s *SensorConfig) { s.Device = "28-0316a2791fff" }), "sensors[0].device: only a ds18b20"},
		{"duplicate", Config{Sensors: []SensorConfig{ok, {Zone: "Bedroom", Chip: "bmp280", Bus: "/dev/i2c-1"}}}, "sensors[1]: same bus and address as sensors[0]"},
		{"ds18b20 behind a DS2482", with(func(s *SensorConfig) { s.Chip, s.Bridge, s.Device = "ds18b20", 0x18, "28-0316a2791fff" }), ""},
		{"ds18b20 behind a DS2482-800", with(func(s *SensorConfig) { s.Chip, s.Bridge, s.Channel, s.Device = "ds18b20", 0x1f, 7, "22-0316a2791fff" }), ""},
		{"bridge address", with(func(s *SensorConfig) { s.Chip, s.Bridge, s.Device = "ds18b20", 0x20, "28-0316a2791fff" }), "sensors[0].bridge: 0x20 is not an address of a DS2482 (0x18–0x1f)"},
		{"bridge on w1", with(func(s *SensorConfig) { s.Chip, s.Bridge, s.Bus, s.Device = "ds18b20", 0x18, "w1", "28-0316a2791fff" }), `sensors[0].bus: "w1": with bridge, bus is the DS2482's I²C bus`},
		{"channel", with(func(s *SensorConfig) { s.Chip, s.Bridge, s.Channel, s.Device = "ds18b20", 0x18, 8, "28-0316a2791fff" }), "sensors[0].channel: 8: a DS2482-800 has channels 0–7"},
		{"channel on w1", with(func(s *SensorConfig) { s.Chip, s.Channel, s.Device = "ds18b20", 2, "28-0316a2791fff" }), "sensors[0].channel: 2: only a ds18b20 behind a DS2482-800"},
		{"address and bridge", with(func(s *SensorConfig) {
			s.Chip, s.Bridge, s.Address, s.Device = "ds18b20", 0x18, 0x18, "28-0316a2791fff"
		}), "sensors[0].address: a ds18b20 has no I²C address; its DS2482's is bridge: 0x18"},
		{"DS18S20 behind a DS2482", with(func(s *SensorConfig) { s.Chip, s.Bridge, s.Device = "ds18b20", 0x18, "10-000802e1b4c2" }), `sensors[0].device: "10-000802e1b4c2": family 10 (DS18S20) is read only through the kernel's 1-wire driver`},
		{"bridge of another chip", with(func(s *SensorConfig) { s.Bridge = 0x18 }), "sensors[0].bridge: only a ds18b20"},
		{"chip at a bridge's address", Config{Sensors: []SensorConfig{
			{Zone: "Indoor", Chip: "mcp9808"},
			{Zone: "Cellar", Chip: "ds18b20", Bridge: 0x18, Device: "28-0316a2791fff"},
		}}, "sensors[0].address: 0x18 on bus 1 is the DS2482 bridge of sensors[1]"},
		{"same device twice", Config{Sensors: []SensorConfig{
			{Zone: "Cellar", Chip: "ds18b20", Bridge: 0x18, Device: "28-0316a2791fff"},
			{Zone: "Cellar", Chip: "ds18b20", Bridge: 0x19, Device: "28-0316a2791fff"},
		}}, "sensors[1]: same 1-wire device as sensors[0]"},
		{"two providers", Config{Sensors: []SensorConfig{
			{Zone: "Indoor", Chip: "sht31", Provides: []sensors.Measurement{sensors.Temperature}},
			{Zone: "Indoor", Chip: "bme280", Provides: []sensors.Measurement{sensors.Temperature}},
		}}, "sensors[1].provides: zone Indoor gets Temperature from sensors[0] already"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestAssignProviders(t *testing.T) {
	T, H, C, P, A := sensors.Temperature, sensors.Humidity, sensors.CO2, sensors.Pressure, sensors.AbsolutePressure
	tests := []struct {
		name string
		ss   []SensorConfig
		want [][]sensors.Measurement
	}{
		{"one chip provides all it measures",
			[]SensorConfig{{Zone: "Z", Chip: "bme280"}},
			[][]sensors.Measurement{{T, H, A, P}}},
		{"the most precise chip wins, per measurement",
			[]SensorConfig{{Zone: "Z", Chip: "bme280"}, {Zone: "Z", Chip: "scd41"}, {Zone: "Z", Chip: "sht41"}},
			[][]sensors.Measurement{{A, P}, {C}, {T, H}}},
		{"NDIR before estimated CO2",
			[]SensorConfig{{Zone: "Z", Chip: "ccs811"}, {Zone: "Z", Chip: "scd30"}},
			[][]sensors.Measurement{{}, {C, T, H}}},
		{"NDIR before the SGP30's estimate",
			[]SensorConfig{{Zone: "Z", Chip: "sgp30"}, {Zone: "Z", Chip: "scd41"}, {Zone: "Y", Chip: "sgp30"}},
			[][]sensors.Measurement{{}, {C, T, H}, {C}}},
		{"first configured on a tie",
			[]SensorConfig{{Zone: "Z", Chip: "sht31"}, {Zone: "Z", Chip: "sht41"}},
			[][]sensors.Measurement{{T, H}, {}}},
		{"provides is exclusive and wins",
			[]SensorConfig{{Zone: "Z", Chip: "sht41"}, {Zone: "Z", Chip: "scd41", Provides: []sensors.Measurement{C, T}}},
			[][]sensors.Measurement{{H}, {C, T}}},
		{"zones are separate",
			[]SensorConfig{{Zone: "A", Chip: "sht41"}, {Zone: "B", Chip: "bme280"}},
			[][]sensors.Measurement{{T, H}, {T, H, A, P}}},
		{"a SEN50 has no temperature or humidity to provide",
			[]SensorConfig{{Zone: "Z", Chip: "sen50"}},
			[][]sensors.Measurement{{sensors.PM1, sensors.PM25, sensors.PM4, sensors.PM10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := assignProviders(tt.ss)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tt.want {
				if len(got[i]) != len(want) {
					t.Errorf("sensors[%d] provides %v, want %v", i, got[i], want)
				}
				for _, m := range want {
					if !got[i][m] {
						t.Errorf("sensors[%d] does not provide %s; provides %v", i, m, got[i])
					}
				}
			}
		})
	}
}

func TestSeaLevelPressure(t *testing.T) {
	tests := []struct {
		p, h, want float64
	}{
		{1000, 0, 1000},
		{1000, 120, 1014.35},
		{950, 540, 1013.21},     // a town at 540 m
		{1013.25, -20, 1010.85}, // below sea level
	}
	for _, tt := range tests {
		if got := SeaLevelPressure(tt.p, tt.h); math.Abs(got-tt.want) > 0.01 {
			t.Errorf("SeaLevelPressure(%g, %g) = %.3f, want %.2f", tt.p, tt.h, got, tt.want)
		}
	}
	// The inverse of the demo house's station pressure (sensors/demo/weather.go).
	sea := 1016.2
	station := sea * math.Pow(1-0.0065*120/288.15, 5.2559)
	if got := SeaLevelPressure(station, 120); math.Abs(got-sea) > 1e-9 {
		t.Errorf("round trip: %v, want %v", got, sea)
	}
}

func TestNewSkipsSensorsThatProvideNothing(t *testing.T) {
	var logs testutil.Buffer
	cfg := Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "sht41"}, {Zone: "Indoor", Chip: "sht31", Address: 0x45}}, WiFi: WiFiConfig{Disabled: true}}
	s, err := New(cfg, &Options{Logger: logTo(&logs)})
	if err != nil {
		t.Fatal(err)
	}
	if zs := s.Zones(); len(zs) != 1 || zs[0] != "Indoor" || s.Name() != "hw" {
		t.Errorf("Zones = %v, Name = %s", zs, s.Name())
	}
	if len(s.specs) != 1 || s.specs[0].chip.name != "sht4x" {
		t.Errorf("specs = %+v, want the sht4x only", s.specs)
	}
	if !strings.Contains(logs.String(), "sensor=sensors[1] chip=sht3x") {
		t.Errorf("skipped sensor not logged:\n%s", logs.String())
	}
}
