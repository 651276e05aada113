package hw

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/i2cfake"
)

// The SEN5x variants (datasheet "SEN5x" v2, March 2022, section 1 and
// 6.1.5; sensors/sen5x decodes them so): the SEN50 measures particulate
// matter only, the SEN54 adds humidity, temperature and the VOC index, the
// SEN55 the NOx index too.

// TestSEN5xVariantConfig: a configuration cannot ask a SEN50 for
// temperature or humidity (nor a SEN54 for the NOx index), whether it
// lists them in provides or offsets them; the error names the sensor, the
// field and what the chip measures. Without provides, a SEN50 provides none
// of them.
func TestSEN5xVariantConfig(t *testing.T) {
	sen := func(chip string, f func(*SensorConfig)) Config {
		s := SensorConfig{Zone: "Living", Chip: chip}
		f(&s)
		return Config{Sensors: []SensorConfig{s}}
	}
	tests := []struct {
		name string
		cfg  Config
		want string // "" for valid
	}{
		{"sen50 temperature", sen("sen50", func(s *SensorConfig) { s.Provides = []sensors.Measurement{sensors.PM25, sensors.Temperature} }),
			`sensors[0].provides[1]: the sen50 does not measure "Temperature" (it measures [PM1 PM25 PM4 PM10])`},
		{"sen50 humidity", sen("SEN50", func(s *SensorConfig) { s.Provides = []sensors.Measurement{sensors.Humidity} }),
			`sensors[0].provides[0]: the sen50 does not measure "Humidity"`},
		{"sen50 temperature offset", sen("sen50", func(s *SensorConfig) { s.Offsets.Temperature = -1.5 }),
			"sensors[0].offsets.temperature: the sen50 does not measure Temperature (it measures [PM1 PM25 PM4 PM10])"},
		{"sen50 humidity offset", sen("sen50", func(s *SensorConfig) { s.Offsets.Humidity = 3 }), "sensors[0].offsets.humidity: the sen50 does not measure Humidity"},
		{"sen54 NOx", sen("sen54", func(s *SensorConfig) { s.Provides = []sensors.Measurement{sensors.NOxIndex} }),
			`sensors[0].provides[0]: the sen54 does not measure "NOxIndex"`},
		{"sen54 temperature", sen("sen54", func(s *SensorConfig) {
			s.Provides, s.Offsets.Temperature = []sensors.Measurement{sensors.Temperature, sensors.VOCIndex}, -1
		}), ""},
		{"sen55 NOx", sen("sen55", func(s *SensorConfig) { s.Provides = []sensors.Measurement{sensors.NOxIndex} }), ""},
		{"sen5x, any variant", sen("sen5x", func(s *SensorConfig) { s.Provides = []sensors.Measurement{sensors.Humidity} }), ""},
		{"pressure offset of a chip without pressure", sen("sht31", func(s *SensorConfig) { s.Offsets.Pressure = 2 }),
			"sensors[0].offsets.pressure: the sht3x does not measure AbsolutePressure"},
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
	got, err := assignProviders([]SensorConfig{{Zone: "Living", Chip: "sen50"}})
	if err != nil {
		t.Fatal(err)
	}
	if got[0][sensors.Temperature] || got[0][sensors.Humidity] || !got[0][sensors.PM25] {
		t.Errorf("a SEN50 alone in its zone provides %v; want particulate matter only", got[0])
	}
}

// TestSEN5xVariantMismatch: a chip of another variant than configured
// fails at start, saying what it is and what to write; sen5x takes any.
func TestSEN5xVariantMismatch(t *testing.T) {
	starting := func(product string) []i2cfake.Step {
		return []i2cfake.Step{
			i2cfake.Write(0, 0xD0, 0x14), i2cfake.Read(20*time.Millisecond, aqText(product)...),
			i2cfake.Write(0, 0xD0, 0x33), i2cfake.Read(20*time.Millisecond, aqText("B4F3C2A1D0E9F8A7")...),
			i2cfake.Write(0, 0x00, 0x21),
		}
	}
	synctest.Test(t, func(t *testing.T) {
		m, open := mux(map[uint16]*i2cfake.Bus{0x69: i2cfake.Sensirion(0x69, starting("SEN50")...)})
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Living", Chip: "sen54"}}}, open, nil)
		_, err := s.ReadOnce(context.Background())
		if err == nil || !strings.Contains(err.Error(), "the chip at 0x69 is a SEN50, configured as sen54: write chip: sen50 (or sen5x)") {
			t.Errorf("ReadOnce: %v, want the variant named", err)
		}
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	})
	if names := ChipNames(); !slices.Contains(names, "sen50") || !slices.Contains(names, "sen5x") {
		t.Errorf("chip names %v", names)
	}
}
