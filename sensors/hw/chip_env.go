package hw

import (
	"slices"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/devices/v3/aht20"
	"periph.io/x/devices/v3/am2320"
	"periph.io/x/devices/v3/bmxx80"
	"periph.io/x/devices/v3/hdc302x"
	"periph.io/x/devices/v3/mcp9808"
	"periph.io/x/devices/v3/tmp102"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/sensirion"
	"github.com/climated/climated/sensors/sht3x"
	"github.com/climated/climated/sensors/sht4x"
)

// envDevice is a chip that senses a physic.Env: temperature, and humidity
// and pressure where it has them.
type envDevice struct {
	s                  interface{ Sense(*physic.Env) error }
	humidity, pressure bool
}

func (d envDevice) sense() ([]value, error) {
	var e physic.Env
	if err := d.s.Sense(&e); err != nil {
		return nil, err
	}
	vs := []value{{sensors.Temperature, e.Temperature.Celsius()}}
	if d.humidity {
		vs = append(vs, value{sensors.Humidity, float64(e.Humidity) / float64(physic.PercentRH)})
	}
	if d.pressure {
		vs = append(vs, value{sensors.AbsolutePressure, float64(e.Pressure) / float64(100*physic.Pascal)})
	}
	return vs, nil
}

// boschID is what a value of the chip-ID register 0xD0 of Bosch's chips
// says the chip is, and whether climated can drive it.
type boschID struct {
	chip    string // the chip name a configuration uses
	name    string // what it is, as scan shows it
	driven  bool   // periph's bmxx80 driver accepts this ID
	problem string // why not, when it does not
}

// bmxx80IDs are the values of register 0xD0. One rule decides what is
// supported: exactly the IDs that periph's bmxx80 driver (v3.7.4,
// bmxx80.go, the switch on the chip ID in makeDev) accepts, 0x55, 0x58 and
// 0x60. The BMP280's engineering samples (0x56, 0x57) are BMP280s, but the
// driver refuses them ("bmxx80: unexpected chip id 56"), so they are
// unsupported: an *UnsupportedError at start, "not supported" at scan.
var bmxx80IDs = map[byte]boschID{
	0x55: {"bmp180", "BMP180", true, ""},
	0x56: {"bmp280", "BMP280 engineering sample", false, "periph's bmxx80 driver does not drive the BMP280's engineering samples (IDs 0x56, 0x57)"},
	0x57: {"bmp280", "BMP280 engineering sample", false, "periph's bmxx80 driver does not drive the BMP280's engineering samples (IDs 0x56, 0x57)"},
	0x58: {"bmp280", "BMP280", true, ""},
	0x60: {"bme280", "BME280", true, ""},
	0x61: {"", "BME680", false, "climated has no BME680 driver"},
}

// openBMxx80 checks the chip ID before periph's driver sees the chip, so
// that a BMP280 configured as a BME280 (a common mix-up: they look alike)
// is a WrongChipError that says what the chip is, and a variant of the
// configured chip that the driver refuses is an UnsupportedError.
func openBMxx80(name string) func(i2c.Bus, uint16, startOpts) (device, error) {
	var want []uint16
	for id, c := range bmxx80IDs {
		if c.chip == name && c.driven {
			want = append(want, uint16(id))
		}
	}
	slices.Sort(want)
	return func(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
		id, err := readReg8(b, addr, 0xD0)
		if err != nil {
			return nil, err
		}
		c := bmxx80IDs[id]
		switch {
		case c.chip == name && !c.driven:
			return nil, &UnsupportedError{Reg: "0xD0", Got: uint16(id), Is: c.name, Supported: want, Why: c.problem}
		case c.chip != name:
			return nil, &WrongChipError{Reg: "0xD0", Got: uint16(id), Want: want, Is: c.chip}
		}
		d, err := bmxx80.NewI2C(b, addr, &bmxx80.DefaultOpts)
		if err != nil {
			return nil, err
		}
		return envDevice{s: d, humidity: name == "bme280", pressure: true}, nil
	}
}

func openSHT3x(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
	d, err := sht3x.NewI2C(b, addr, nil)
	if err != nil {
		return nil, err
	}
	return envDevice{s: d, humidity: true}, nil
}

func openSHT4x(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
	d, err := sht4x.NewI2C(b, addr, nil)
	if err != nil {
		return nil, err
	}
	return envDevice{s: d, humidity: true}, nil
}

// hdc302xVendor is Texas Instruments' manufacturer ID, read with command
// 0x3781 (datasheet 7.5.7.8).
const hdc302xVendor = 0x3000

func openHDC302x(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
	r := make([]byte, 3)
	if err := b.Tx(addr, []byte{0x37, 0x81}, r); err != nil {
		return nil, err
	}
	w, err := sensirion.Words(r)
	if err != nil {
		return nil, err
	}
	if w[0] != hdc302xVendor {
		return nil, &WrongChipError{Reg: "0x3781", Got: w[0], Want: []uint16{hdc302xVendor}}
	}
	// Continuous mode at 1 Hz; NewI2C sleeps one period.
	d, err := hdc302x.NewI2C(b, addr, hdc302x.RateHertz)
	if err != nil {
		return nil, err
	}
	return envDevice{s: d, humidity: true}, nil
}

func openAHT20(b i2c.Bus, _ uint16, _ startOpts) (device, error) {
	d, err := aht20.NewI2C(b, nil)
	if err != nil {
		return nil, err
	}
	return envDevice{s: d, humidity: true}, nil
}

// MCP9808 identification registers (datasheet 5.1.5): manufacturer 0x0054,
// device ID 0x04 in the high byte of register 7.
const (
	mcp9808Vendor = 0x0054
	mcp9808Device = 0x04
)

func openMCP9808(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
	if err := checkMCP9808(b, addr); err != nil {
		return nil, err
	}
	opts := mcp9808.DefaultOpts
	opts.Addr = int(addr)
	d, err := mcp9808.New(b, &opts)
	if err != nil {
		return nil, err
	}
	return envDevice{s: d}, nil
}

func checkMCP9808(b i2c.Bus, addr uint16) error {
	vendor, err := readReg16(b, addr, 0x06)
	if err != nil {
		return err
	}
	if vendor != mcp9808Vendor {
		return &WrongChipError{Reg: "0x06", Got: vendor, Want: []uint16{mcp9808Vendor}}
	}
	dev, err := readReg16(b, addr, 0x07)
	if err != nil {
		return err
	}
	if dev>>8 != mcp9808Device {
		return &WrongChipError{Reg: "0x07", Got: dev >> 8, Want: []uint16{mcp9808Device}}
	}
	return nil
}

// openTMP102 uses periph's driver; the chip has no ID register. The
// driver's Halt sets the shutdown bit the wrong way round, which does not
// matter here: devices are never halted.
func openTMP102(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
	d, err := tmp102.NewI2C(b, addr, nil)
	if err != nil {
		return nil, err
	}
	return envDevice{s: d}, nil
}

func openAM2320(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
	d, err := am2320.NewI2C(b, addr)
	if err != nil {
		return nil, err
	}
	return envDevice{s: d, humidity: true}, nil
}

// readReg8 reads one register byte; 0xFF, what a bus without a chip
// reads, is ErrAllOnes.
func readReg8(b i2c.Bus, addr uint16, reg byte) (byte, error) {
	r := make([]byte, 1)
	if err := b.Tx(addr, []byte{reg}, r); err != nil {
		return 0, err
	}
	if r[0] == 0xFF {
		return 0, ErrAllOnes
	}
	return r[0], nil
}

// readReg16 reads a big-endian 16-bit register.
func readReg16(b i2c.Bus, addr uint16, reg byte) (uint16, error) {
	r := make([]byte, 2)
	if err := b.Tx(addr, []byte{reg}, r); err != nil {
		return 0, err
	}
	return uint16(r[0])<<8 | uint16(r[1]), nil
}
