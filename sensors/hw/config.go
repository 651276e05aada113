package hw

import (
	"errors"
	"fmt"
	"github.com/climated/climated/sensors/field"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// Defaults of the configuration.
const (
	DefaultInterval     = time.Minute
	DefaultStaleAfter   = 3 // missed intervals
	DefaultZone         = "Indoor"
	DefaultWiFiInterval = time.Minute
	DefaultW1Dir        = "/sys/bus/w1/devices"
	DefaultWireless     = "/proc/net/wireless"
)

// Config is the hw part of climated's configuration file:
//
//	altitude: 120          # metres above sea level, for the sea-level Pressure
//	bus: 1                 # default I²C bus (/dev/i2c-1)
//	interval: 1m           # default reading period
//	sensors:
//	  - {zone: Indoor, chip: bme280, address: 0x76}
//	  - {zone: Indoor, chip: scd41, interval: 30s, offsets: {temperature: -1.5}}
//	  - {zone: Bedroom, chip: sht31, address: 0x45, provides: [Temperature, Humidity]}
//	  - {zone: Bedroom, chip: sgp30}      # CO2 estimated from VOCs
//	  - {zone: Balcony, chip: ds18b20, device: 28-0316a2791fff}              # on the kernel's 1-wire bus
//	  - {zone: Cellar, chip: ds18b20, bridge: 0x18, device: 28-0417c1b2e3ff} # behind a DS2482 at 0x18
//	  - {zone: Attic, chip: ds18b20, bus: 1, bridge: 0x1c, channel: 3, device: 28-051a2b3c4dff} # channel 3 of a DS2482-800
//	wifi: {zone: Indoor}
type Config struct {
	Altitude   float64        `yaml:"altitude"`    // metres above sea level, −500…9000
	Bus        string         `yaml:"bus"`         // default I²C bus of the sensors, "1"
	Interval   time.Duration  `yaml:"interval"`    // default reading period, 1m
	StaleAfter int            `yaml:"stale_after"` // intervals without a reading before a sensor is stale, 3
	Sensors    []SensorConfig `yaml:"sensors"`
	WiFi       WiFiConfig     `yaml:"wifi"`
}

// SensorConfig is one chip.
type SensorConfig struct {
	Zone     string                `yaml:"zone"`               // zone it measures, e.g. Indoor
	Chip     string                `yaml:"chip"`               // see ChipNames
	Bus      string                `yaml:"bus,omitempty"`      // I²C bus; "w1" for a DS18B20 on the kernel's 1-wire bus
	Address  uint16                `yaml:"address,omitempty"`  // I²C address; default: the chip's usual one
	Device   string                `yaml:"device,omitempty"`   // DS18B20: its 1-wire ID, e.g. 28-0316a2791fff
	Bridge   uint16                `yaml:"bridge,omitempty"`   // DS18B20 behind a DS2482: the bridge's I²C address, 0x18–0x1f
	Channel  int                   `yaml:"channel,omitempty"`  // DS18B20 behind a DS2482-800: its 1-wire channel, 0–7
	Interval time.Duration         `yaml:"interval,omitempty"` // reading period; default: Config.Interval
	Offsets  Offsets               `yaml:"offsets,omitempty"`  // calibration, added to what the chip reports
	Provides []sensors.Measurement `yaml:"provides,omitempty"` // the measurements it provides for its zone; default: see assignProviders
}

// Offsets calibrate a chip: each is added to what it reports.
type Offsets struct {
	Temperature float64 `yaml:"temperature,omitempty"` // °C, within ±20
	Humidity    float64 `yaml:"humidity,omitempty"`    // % (points of relative humidity), within ±50
	Pressure    float64 `yaml:"pressure,omitempty"`    // hPa, added to the station pressure, within ±50
}

// WiFiConfig is the hub's own Wi-Fi signal, reported as wifi_status.
type WiFiConfig struct {
	Disabled  bool          `yaml:"disabled"`
	Interface string        `yaml:"interface"` // default: the first in /proc/net/wireless
	Zone      string        `yaml:"zone"`      // default: the zone of the first sensor, else Indoor
	Interval  time.Duration `yaml:"interval"`  // default 1m
}

// WithDefaults fills in what the configuration leaves out.
func (c Config) WithDefaults() Config {
	if c.Bus == "" {
		c.Bus = DefaultBus
	}
	c.Bus = normBus(c.Bus)
	if c.Interval == 0 {
		c.Interval = DefaultInterval
	}
	if c.StaleAfter == 0 {
		c.StaleAfter = DefaultStaleAfter
	}
	c.Sensors = slices.Clone(c.Sensors)
	for i := range c.Sensors {
		s := &c.Sensors[i]
		chip := lookupChip(s.Chip)
		if chip != nil {
			s.Chip = chip.name
		}
		switch {
		case s.Bus == "" && s.Chip == chipDS18B20 && s.Bridge == 0:
			s.Bus = "w1"
		case s.Bus == "":
			s.Bus = c.Bus
		default:
			s.Bus = normBus(s.Bus)
		}
		if s.Address == 0 && chip != nil && len(chip.addrs) > 0 {
			s.Address = chip.addrs[0]
		}
		if s.Interval == 0 {
			s.Interval = c.Interval
		}
	}
	if c.WiFi.Interval == 0 {
		c.WiFi.Interval = DefaultWiFiInterval
	}
	if c.WiFi.Zone == "" {
		c.WiFi.Zone = DefaultZone
		if len(c.Sensors) > 0 && c.Sensors[0].Zone != "" {
			c.WiFi.Zone = c.Sensors[0].Zone
		}
	}
	return c
}

// Validate checks the configuration (after WithDefaults) and names the
// offending field in its error, e.g. "sensors[2].address: …".
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	add := func(path, format string, a ...any) {
		errs = append(errs, field.Errorf(path, "%s: %s", path, fmt.Sprintf(format, a...)))
	}
	if math.IsNaN(c.Altitude) || c.Altitude < -500 || c.Altitude > 9000 {
		add("altitude", "%g m: want −500 to 9000 metres above sea level", c.Altitude)
	}
	if c.Interval < time.Second {
		add("interval", "%s: want at least 1s", c.Interval)
	}
	if c.StaleAfter < 2 {
		add("stale_after", "%d: want at least 2 intervals", c.StaleAfter)
	}
	if !c.WiFi.Disabled && c.WiFi.Interval < time.Second {
		add("wifi.interval", "%s: want at least 1s", c.WiFi.Interval)
	}
	errs = append(errs, validSensors(c.Sensors)...)
	if len(errs) == 0 {
		if _, err := assignProviders(c.Sensors); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// validSensors checks each sensor, and that no two share a bus and
// address (or a 1-wire device) and none sits at the address of a DS2482
// bridge that others are behind.
func validSensors(sensors []SensorConfig) []error {
	var errs []error
	add := func(path, format string, a ...any) {
		errs = append(errs, field.Errorf(path, "%s: %s", path, fmt.Sprintf(format, a...)))
	}
	seen := make(map[string]int)
	bridges := make(map[string]int) // bus/address of a DS2482 → the first sensor behind it
	for i, s := range sensors {
		f := fmt.Sprintf("sensors[%d]", i)
		if err := s.validate(); err != nil {
			errs = append(errs, field.Wrap(f, ".", err))
			continue
		}
		key, what := s.Bus+"/"+fmt.Sprint(s.Address), "same bus and address"
		if s.Device != "" {
			key, what = s.Device, "same 1-wire device"
		}
		if j, dup := seen[key]; dup {
			add(f, "%s as sensors[%d]", what, j)
		}
		seen[key] = i
		if k := s.Bus + "/" + fmt.Sprint(s.Bridge); s.Bridge != 0 {
			if _, ok := bridges[k]; !ok {
				bridges[k] = i
			}
		}
	}
	for i, s := range sensors {
		if j, ok := bridges[s.Bus+"/"+fmt.Sprint(s.Address)]; ok && s.Address != 0 {
			add(fmt.Sprintf("sensors[%d].address", i), "0x%02x on bus %s is the DS2482 bridge of sensors[%d]", s.Address, s.Bus, j)
		}
	}
	return errs
}

// validate checks one sensor; its error starts with the field name.
func (s SensorConfig) validate() error {
	chip := lookupChip(s.Chip)
	switch {
	case strings.TrimSpace(s.Zone) == "":
		return field.Errorf("zone", "zone: empty: name the zone the chip measures, e.g. Indoor")
	case s.Chip == "":
		return field.Errorf("chip", "chip: empty: want one of %s", strings.Join(ChipNames(), ", "))
	case chip == nil:
		return field.Errorf("chip", "chip: unknown chip %q: want one of %s", s.Chip, strings.Join(ChipNames(), ", "))
	case s.Interval < chip.period:
		return field.Errorf("interval", "interval: %s: the %s measures at most every %s", s.Interval, chip.name, chip.period)
	case math.Abs(s.Offsets.Temperature) > 20:
		return field.Errorf("offsets.temperature", "offsets.temperature: %g °C: want within ±20", s.Offsets.Temperature)
	case math.Abs(s.Offsets.Humidity) > 50:
		return field.Errorf("offsets.humidity", "offsets.humidity: %g %%: want within ±50", s.Offsets.Humidity)
	case math.Abs(s.Offsets.Pressure) > 50:
		return field.Errorf("offsets.pressure", "offsets.pressure: %g hPa: want within ±50", s.Offsets.Pressure)
	}
	if chip.name == chipDS18B20 {
		if err := s.validateDS18B20(); err != nil {
			return err
		}
	} else {
		if _, err := busNumber(s.Bus); err != nil {
			return field.Errorf("bus", "bus: %w", err)
		}
		if !slices.Contains(chip.addrs, s.Address) {
			return field.Errorf("address", "address: 0x%02x is not an address of the %s (%s)", s.Address, chip.name, chip.addrList())
		}
		switch {
		case s.Device != "":
			return field.Errorf("device", "device: only a ds18b20 has a 1-wire device ID")
		case s.Bridge != 0:
			return field.Errorf("bridge", "bridge: only a ds18b20 is read through a DS2482 bridge")
		case s.Channel != 0:
			return field.Errorf("channel", "channel: only a ds18b20 behind a DS2482-800 has a 1-wire channel")
		}
	}
	return s.validateMeasures(chip)
}

// validateMeasures checks that what provides and offsets name is what the
// chip measures (a SEN50 has no temperature or humidity to offset).
func (s SensorConfig) validateMeasures(chip *chipInfo) error {
	for j, m := range s.Provides {
		if !chip.measuresM(m) {
			return field.Errorf(fmt.Sprintf("provides[%d]", j), "provides[%d]: the %s does not measure %q (it measures %v)", j, chip.name, string(m), chip.measures)
		}
	}
	for _, o := range []struct {
		key string
		v   float64
		m   sensors.Measurement
	}{{"temperature", s.Offsets.Temperature, sensors.Temperature}, {"humidity", s.Offsets.Humidity, sensors.Humidity},
		{"pressure", s.Offsets.Pressure, sensors.AbsolutePressure}} {
		if o.v != 0 && !chip.measuresM(o.m) {
			return field.Errorf("offsets."+o.key, "offsets.%s: the %s does not measure %s (it measures %v)", o.key, chip.name, o.m, chip.measures)
		}
	}
	return nil
}

// validateDS18B20 checks a DS18B20 on the kernel's 1-wire bus (bus w1) or
// behind a DS2482 bridge on an I²C bus (bridge set).
func (s SensorConfig) validateDS18B20() error {
	if s.Bridge == 0 {
		switch {
		case s.Bus != "w1":
			return field.Errorf("bus", "bus: %q: a ds18b20 is read through the kernel's 1-wire bus (bus: w1) or a DS2482 bridge (bridge: its I²C address)", s.Bus)
		case !validW1ID(s.Device):
			return field.Errorf("device", "device: %q: want the 1-wire ID of a DS18B20, e.g. 28-0316a2791fff (ls %s)", s.Device, DefaultW1Dir)
		case s.Channel != 0:
			return field.Errorf("channel", "channel: %d: only a ds18b20 behind a DS2482-800 (bridge:) has a channel", s.Channel)
		}
		return nil
	}
	if _, err := busNumber(s.Bus); err != nil {
		return field.Errorf("bus", "bus: %q: with bridge, bus is the DS2482's I²C bus, e.g. 1", s.Bus)
	}
	switch {
	case s.Bridge < ds2482Addrs[0] || s.Bridge > ds2482Addrs[len(ds2482Addrs)-1]:
		return field.Errorf("bridge", "bridge: 0x%02x is not an address of a DS2482 (0x18–0x1f)", s.Bridge)
	case s.Address != 0:
		return field.Errorf("address", "address: a ds18b20 has no I²C address; its DS2482's is bridge: 0x%02x", s.Address)
	case s.Channel < 0 || s.Channel > 7:
		return field.Errorf("channel", "channel: %d: a DS2482-800 has channels 0–7", s.Channel)
	}
	if _, err := romOf(s.Device); err != nil {
		return field.Errorf("device", "device: %q: %w", s.Device, err)
	}
	return nil
}
