package sht4x

import (
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/sensirion"
)

// Addresses of the variants: SHT4x-A (the usual one), -B and -C.
const (
	DefaultAddr uint16 = 0x44
	AddrB       uint16 = 0x45
	AddrC       uint16 = 0x46
)

// Precision trades measurement time for noise (datasheet table 4).
type Precision int

// Precisions, with their maximum measurement times.
const (
	High   Precision = iota // 8.3 ms, repeatability 0.04 °C / 0.08 %RH
	Medium                  // 4.5 ms
	Low                     // 1.7 ms
)

var (
	measureCmd  = [...]byte{High: 0xFD, Medium: 0xF6, Low: 0xE0}
	measureWait = [...]time.Duration{High: 9 * time.Millisecond, Medium: 5 * time.Millisecond, Low: 2 * time.Millisecond}
)

const (
	readSerial = 0x89
	softReset  = 0x94
)

// Opts are the options of NewI2C; nil means DefaultOpts.
type Opts struct {
	Precision Precision
}

// DefaultOpts measures with high precision.
var DefaultOpts = Opts{Precision: High}

// Dev is an SHT4x on an I²C bus.
type Dev struct {
	d      i2c.Dev
	opts   Opts
	serial uint32
	mu     sync.Mutex
}

// NewI2C returns the SHT4x at addr, after reading its serial number to
// check that an SHT4x answers there (both CRCs must match).
func NewI2C(b i2c.Bus, addr uint16, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if opts.Precision < High || opts.Precision > Low {
		return nil, fmt.Errorf("sht4x: invalid precision %d", opts.Precision)
	}
	d := &Dev{d: i2c.Dev{Bus: b, Addr: addr}, opts: *opts}
	w, err := sensirion.Read(&d.d, []byte{readSerial}, time.Millisecond, 2)
	if err != nil {
		return nil, fmt.Errorf("sht4x: read serial number: %w", err)
	}
	d.serial = uint32(w[0])<<16 | uint32(w[1])
	return d, nil
}

func (d *Dev) String() string { return fmt.Sprintf("SHT4x{%s}", &d.d) }

// Serial is the chip's serial number, read by NewI2C.
func (d *Dev) Serial() uint32 { return d.serial }

// Sense measures temperature and relative humidity once; it takes up to
// 9 ms at high precision. Pressure is left at zero.
func (d *Dev) Sense(e *physic.Env) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	w, err := sensirion.Read(&d.d, []byte{measureCmd[d.opts.Precision]}, measureWait[d.opts.Precision], 2)
	if err != nil {
		return fmt.Errorf("sht4x: measure: %w", err)
	}
	e.Temperature = Temperature(w[0])
	e.Humidity = Humidity(w[1])
	e.Pressure = 0
	return nil
}

// Halt resets the chip; between single measurements it is idle anyway.
func (d *Dev) Halt() error {
	if err := d.d.Tx([]byte{softReset}, nil); err != nil {
		return fmt.Errorf("sht4x: soft reset: %w", err)
	}
	return nil
}

// Temperature converts a raw reading: T = −45 °C + 175 °C · S / (2¹⁶ − 1).
func Temperature(raw uint16) physic.Temperature { return sensirion.Temperature(raw) }

// Humidity converts a raw reading: RH = −6 % + 125 % · S / (2¹⁶ − 1),
// cropped to 0…100 % as the datasheet recommends (section 4.6: values
// outside are physically impossible and come from the linear conversion).
func Humidity(raw uint16) physic.RelativeHumidity { return sensirion.Humidity(raw, -6, 125) }
