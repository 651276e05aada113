package sht3x

import (
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/sensirion"
)

// Addresses of the chip: ADDR pin low (and the only one of the SHT85), high.
const (
	DefaultAddr   uint16 = 0x44
	AlternateAddr uint16 = 0x45
)

// Repeatability trades measurement time (and self-heating) for noise.
type Repeatability int

// Repeatabilities, with their maximum measurement times (datasheet table 4).
const (
	High   Repeatability = iota // 15.5 ms, 0.04 °C / 0.08 %RH noise
	Medium                      // 6.5 ms
	Low                         // 4.5 ms
)

var (
	// Single shot, clock stretching disabled (datasheet table 9).
	measureCmd  = [...][]byte{High: {0x24, 0x00}, Medium: {0x24, 0x0B}, Low: {0x24, 0x16}}
	measureWait = [...]time.Duration{High: 16 * time.Millisecond, Medium: 7 * time.Millisecond, Low: 5 * time.Millisecond}
	readStatus  = []byte{0xF3, 0x2D}
	softReset   = []byte{0x30, 0xA2}
)

// Opts are the options of NewI2C; nil means DefaultOpts.
type Opts struct {
	Repeatability Repeatability
}

// DefaultOpts measures with high repeatability.
var DefaultOpts = Opts{Repeatability: High}

// Dev is an SHT3x on an I²C bus.
type Dev struct {
	d    i2c.Dev
	opts Opts
	mu   sync.Mutex
}

// NewI2C returns the SHT3x at addr, after reading its status register to
// check that an SHT3x answers there (its CRC must match).
func NewI2C(b i2c.Bus, addr uint16, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if opts.Repeatability < High || opts.Repeatability > Low {
		return nil, fmt.Errorf("sht3x: invalid repeatability %d", opts.Repeatability)
	}
	d := &Dev{d: i2c.Dev{Bus: b, Addr: addr}, opts: *opts}
	if _, err := d.Status(); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Dev) String() string { return fmt.Sprintf("SHT3x{%s}", &d.d) }

// Status reads the status register (datasheet table 17): alert, heater,
// reset and checksum flags.
func (d *Dev) Status() (uint16, error) {
	w, err := sensirion.Read(&d.d, readStatus, time.Millisecond, 1)
	if err != nil {
		return 0, fmt.Errorf("sht3x: read status: %w", err)
	}
	return w[0], nil
}

// Sense measures temperature and relative humidity once; it takes up to
// 16 ms at high repeatability. Pressure is left at zero.
func (d *Dev) Sense(e *physic.Env) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	w, err := sensirion.Read(&d.d, measureCmd[d.opts.Repeatability], measureWait[d.opts.Repeatability], 2)
	if err != nil {
		return fmt.Errorf("sht3x: measure: %w", err)
	}
	e.Temperature = Temperature(w[0])
	e.Humidity = Humidity(w[1])
	e.Pressure = 0
	return nil
}

// Halt resets the chip, ending any measurement in progress; in single-shot
// mode it is idle between measurements anyway.
func (d *Dev) Halt() error {
	if err := d.d.Tx(softReset, nil); err != nil {
		return fmt.Errorf("sht3x: soft reset: %w", err)
	}
	return nil
}

// Temperature converts a raw reading: T = −45 °C + 175 °C · S / (2¹⁶ − 1).
func Temperature(raw uint16) physic.Temperature { return sensirion.Temperature(raw) }

// Humidity converts a raw reading: RH = 100 % · S / (2¹⁶ − 1).
func Humidity(raw uint16) physic.RelativeHumidity { return sensirion.Humidity(raw, 0, 100) }
