package hw

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/sps30"
)

// value is one quantity a chip measured, in the unit of its measurement.
type value struct {
	m sensors.Measurement
	v float64
}

// device is an opened chip. sense measures once; it may return errNotReady.
// Devices are never halted: a chip left measuring is restarted by the next
// open, and halting one that another process polls (climated read while
// the hub runs) would stop it under that process's feet.
type device interface {
	sense() ([]value, error)
}

// closer is a device with a goroutine of its own (an SGP30 measuring
// every second), stopped when the poller drops the device.
type closer interface {
	close()
}

// startOpts is what some chips need to know when they start.
type startOpts struct {
	altitude float64 // metres
	// ctx bounds a goroutine the device starts; shared is the bus such a
	// goroutine uses (attempts end, the device's goroutine does not), a
	// transaction at a time.
	ctx    context.Context
	shared i2c.Bus
	// air is the zone's latest temperature (°C) and relative humidity (%)
	// from the chips that provide them, for humidity compensation.
	air func() (t, rh float64, ok bool)
}

// chipInfo describes a supported chip.
type chipInfo struct {
	name      string
	aliases   []string
	addrs     []uint16 // I²C addresses it can have, the default first; nil off I²C
	measures  []sensors.Measurement
	rank      int  // lower is more precise: the default provider in a zone
	estimated bool // CO2 is a metal-oxide estimate (eCO2), not an NDIR measurement
	warmup    time.Duration
	period    time.Duration // the chip's own measurement period; also the shortest interval
	temp      [2]float64    // operating temperature range, °C
	open      func(b i2c.Bus, addr uint16, o startOpts) (device, error)
	note      string // a known limitation worth a line in the log
}

const (
	chipWiFi    = "wifi"
	chipDS18B20 = "ds18b20"
)

var (
	th  = []sensors.Measurement{sensors.Temperature, sensors.Humidity}
	tp  = []sensors.Measurement{sensors.Temperature, sensors.AbsolutePressure, sensors.Pressure}
	thp = []sensors.Measurement{sensors.Temperature, sensors.Humidity, sensors.AbsolutePressure, sensors.Pressure}
	cth = []sensors.Measurement{sensors.CO2, sensors.Temperature, sensors.Humidity}
)

var chips = append([]*chipInfo{
	{name: "bme280", addrs: []uint16{0x76, 0x77}, measures: thp, rank: 4, period: time.Second, temp: [2]float64{-40, 85}, open: openBMxx80("bme280")},
	{name: "bmp280", addrs: []uint16{0x76, 0x77}, measures: tp, rank: 4, period: time.Second, temp: [2]float64{-40, 85}, open: openBMxx80("bmp280")},
	{name: "bmp180", addrs: []uint16{0x77}, measures: tp, rank: 6, period: time.Second, temp: [2]float64{-40, 85}, open: openBMxx80("bmp180")},
	{name: "sht3x", aliases: []string{"sht30", "sht31", "sht35", "sht85"}, addrs: []uint16{0x44, 0x45}, measures: th, rank: 1, period: time.Second, temp: [2]float64{-40, 125}, open: openSHT3x},
	{name: "sht4x", aliases: []string{"sht40", "sht41", "sht43", "sht45"}, addrs: []uint16{0x44, 0x45, 0x46}, measures: th, rank: 1, period: time.Second, temp: [2]float64{-40, 125}, open: openSHT4x},
	{name: "hdc302x", aliases: []string{"hdc3020", "hdc3021", "hdc3022"}, addrs: []uint16{0x44, 0x45, 0x46, 0x47}, measures: th, rank: 1, period: time.Second, temp: [2]float64{-40, 125}, open: openHDC302x},
	{name: "scd4x", aliases: []string{"scd40", "scd41"}, addrs: []uint16{0x62}, measures: cth, rank: 8, warmup: 5 * time.Second, period: 5 * time.Second, temp: [2]float64{-10, 60}, open: openSCD4x,
		note: "first reading about 5 s after start; the chip's own temperature offset is left as it is (periph's conversion of it is wrong): use offsets.temperature"},
	{name: "scd30", addrs: []uint16{0x61}, measures: cth, rank: 8, warmup: 2 * time.Second, period: 2 * time.Second, temp: [2]float64{0, 50}, open: openSCD30},
	{name: "aht20", aliases: []string{"aht21", "aht25"}, addrs: []uint16{0x38}, measures: th, rank: 5, period: time.Second, temp: [2]float64{-40, 85}, open: openAHT20},
	{name: "mcp9808", addrs: []uint16{0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f}, measures: th[:1], rank: 2, period: time.Second, temp: [2]float64{-40, 125}, open: openMCP9808},
	{name: "tmp102", addrs: []uint16{0x48, 0x49, 0x4a, 0x4b}, measures: th[:1], rank: 3, period: time.Second, temp: [2]float64{-40, 125}, open: openTMP102},
	{name: "am2320", addrs: []uint16{0x5c}, measures: th, rank: 6, period: 3 * time.Second, temp: [2]float64{-40, 80}, open: openAM2320,
		note: "the chip sleeps between readings; periph's driver retries a failed read for up to 20 s"},
	{name: "ccs811", addrs: []uint16{0x5a, 0x5b}, measures: []sensors.Measurement{sensors.CO2}, rank: 9, estimated: true, period: time.Second, temp: [2]float64{-40, 85}, open: openCCS811,
		note: "CO2 is estimated from volatile organic compounds (eCO2), not measured; the first 20 minutes after power-up and the first 48 hours of a new chip are unreliable"},
	{name: "sgp30", addrs: []uint16{0x58}, measures: []sensors.Measurement{sensors.CO2}, rank: 9, estimated: true, warmup: sgp30WarmUp, period: time.Second, temp: [2]float64{-40, 85}, open: openSGP30,
		note: "CO2 is estimated from hydrogen and ethanol (eCO2), not measured; the chip measures every second in a goroutine of its own, its first reading comes 15.5 s after start, and its baseline takes 12 hours to settle after each start"},
	{name: "sps30", addrs: []uint16{sps30.Addr}, measures: pm, rank: 7, warmup: sps30.WarmUp + time.Second, period: time.Second, temp: [2]float64{-10, 60}, open: openSPS30,
		note: "particulate matter from 31 s after start"},
	{name: chipDS18B20, measures: th[:1], rank: 3, period: time.Second, temp: [2]float64{-55, 125}},
}, sen5xChips()...)

// lookupChip finds a chip by its name or an alias, case-insensitively.
func lookupChip(name string) *chipInfo {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, c := range chips {
		if c.name == n || slices.Contains(c.aliases, n) {
			return c
		}
	}
	return nil
}

// ChipNames lists the chip names a configuration may use, aliases included.
func ChipNames() []string {
	var names []string
	for _, c := range chips {
		names = append(names, c.name)
		names = append(names, c.aliases...)
	}
	sort.Strings(names)
	return names
}

func (c *chipInfo) measuresM(m sensors.Measurement) bool { return slices.Contains(c.measures, m) }

func (c *chipInfo) addrList() string {
	s := make([]string, len(c.addrs))
	for i, a := range c.addrs {
		s[i] = fmt.Sprintf("0x%02x", a)
	}
	return strings.Join(s, ", ")
}
