package sen5x

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/climated/climated/sensors/sensirion"
)

// Addr is the module's only I²C address (the SPS30's too: tell them apart
// by the product name).
const Addr uint16 = 0x69

// Commands and their execution times (datasheet table 12).
const (
	cmdStart       = 0x0021 // start measurement
	cmdStop        = 0x0104 // stop measurement
	cmdDataReady   = 0x0202 // read data-ready flag
	cmdRead        = 0x03C4 // read measured values
	cmdFanCleaning = 0x5607 // start fan cleaning
	cmdAutoClean   = 0x8004 // read/write auto cleaning interval, seconds as two words
	cmdProductName = 0xD014 // read product name, 32 ASCII characters
	cmdSerial      = 0xD033 // read serial number, 32 ASCII characters
	cmdStatus      = 0xD206 // read device status register, two words
	cmdReset       = 0xD304 // device reset

	waitStart = 50 * time.Millisecond
	waitStop  = 200 * time.Millisecond
	waitRead  = 20 * time.Millisecond // data-ready, measured values, status
	waitWrite = 20 * time.Millisecond // fan cleaning, auto cleaning interval
	// waitInfo is what Sensirion's driver waits before reading the product
	// name and serial number; the datasheet says less than 20 ms.
	waitInfo  = 50 * time.Millisecond
	waitReset = 100 * time.Millisecond

	textWords = 16 // 32 characters, NUL included
)

const (
	// WarmUp is how long after start the particulate matter is not yet
	// stable (datasheet table 3, typical start-up time: 8 s at 200 to
	// 3000 particles/cm³, 16 s at 100 to 200, 30 s at 50 to 100, the clean
	// air of a home): it reads as no value until then.
	WarmUp = 30 * time.Second
	// Cleaning is how long the fan cleaning runs, during which the values
	// are not updated (datasheet 5.2).
	Cleaning = 10 * time.Second
)

// No-value words (datasheet 6.1.5: "If any value is unknown, 0xFFFF is
// returned"; Sensirion's driver: 0xFFFF for the unsigned particulate
// matter, 0x7FFF for the signed others).
const (
	noUint = 0xFFFF
	noInt  = 0x7FFF
)

var (
	// ErrNotReady is returned by Sense when no new measurement is ready:
	// the module makes one every second.
	ErrNotReady = errors.New("sen5x: no new measurement ready")
	// ErrWarmingUp is returned by Sense when the chip has no value at all
	// yet, as a SEN50 in its first 30 s.
	ErrWarmingUp = errors.New("sen5x: warming up: no value yet")
	// ErrNoValue is returned by Sense when the chip reports no value at
	// all after its warm-up.
	ErrNoValue = errors.New("sen5x: the chip reports no value at all")
	// ErrCleaning is returned by Sense during the 10 s of a fan cleaning
	// that StartFanCleaning started: the values are not updated meanwhile.
	ErrCleaning = errors.New("sen5x: fan cleaning: no measurement for 10 s")
)

// WrongChipError is a product name that is not a SEN50, SEN54 or SEN55:
// another chip answers at the address.
type WrongChipError struct {
	Name string
}

func (e *WrongChipError) Error() string {
	return fmt.Sprintf("sen5x: product name %q is not a SEN50, SEN54 or SEN55", e.Name)
}

// Opts are the options of NewI2C; nil means none.
type Opts struct {
	// AutoCleaning is the interval of the fan's automatic cleaning, in
	// whole seconds. Zero leaves the chip's, one week unless set since
	// its power-up (the setting is volatile); negative turns it off.
	AutoCleaning time.Duration
}

// Air is one measurement. A value the chip does not have is NaN.
type Air struct {
	PM1, PM25, PM4, PM10 float64 // mass concentration, µg/m³
	Humidity             float64 // relative humidity, %
	Temperature          float64 // °C
	VOC, NOx             float64 // Sensirion's VOC and NOx indices, 1…500
}

// Dev is a SEN5x on an I²C bus.
type Dev struct {
	d       i2c.Dev
	product string
	serial  string

	mu         sync.Mutex
	startAt    time.Time // when the measurement was started
	cleanUntil time.Time // end of the fan cleaning StartFanCleaning started
}

// NewI2C checks that a SEN5x answers at addr (its product name, with
// matching CRCs, and its serial number), sets the automatic cleaning
// interval if opts asks, and starts the measurement. A chip left measuring
// by an earlier process goes on measuring; one that refuses the start is
// stopped and started again.
func NewI2C(b i2c.Bus, addr uint16, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &Opts{}
	}
	interval, err := sensirion.CleaningInterval(opts.AutoCleaning)
	if err != nil {
		return nil, fmt.Errorf("sen5x: %w", err)
	}
	d := &Dev{d: i2c.Dev{Bus: b, Addr: addr}}
	if err := d.identify(); err != nil {
		return nil, err
	}
	if opts.AutoCleaning != 0 {
		if err := d.command(cmdAutoClean, waitWrite, uint16(interval>>16), uint16(interval)); err != nil {
			return nil, fmt.Errorf("sen5x: write auto cleaning interval: %w", err)
		}
	}
	if err := d.start(); err != nil {
		return nil, err
	}
	return d, nil
}

// identify reads the product name and serial number.
func (d *Dev) identify() error {
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdProductName), waitInfo, textWords)
	if err != nil {
		return fmt.Errorf("sen5x: read product name: %w", err)
	}
	d.product = sensirion.String(w)
	switch d.product {
	case "SEN50", "SEN54", "SEN55":
	default:
		return &WrongChipError{Name: d.product}
	}
	if w, err = sensirion.Read(&d.d, sensirion.Encode8(cmdSerial), waitInfo, textWords); err != nil {
		return fmt.Errorf("sen5x: read serial number: %w", err)
	}
	d.serial = sensirion.String(w)
	return nil
}

// start starts the measurement, stopping it first if the chip refuses.
func (d *Dev) start() error {
	if err := d.command(cmdStart, waitStart); err != nil {
		if err := d.command(cmdStop, waitStop); err != nil {
			return fmt.Errorf("sen5x: stop measurement: %w", err)
		}
		if err := d.command(cmdStart, waitStart); err != nil {
			return fmt.Errorf("sen5x: start measurement: %w", err)
		}
	}
	d.startAt = time.Now()
	return nil
}

func (d *Dev) String() string { return fmt.Sprintf("%s{%s}", d.product, &d.d) }

// Product is the chip's product name: "SEN50", "SEN54" or "SEN55".
func (d *Dev) Product() string { return d.product }

// Serial is the chip's serial number.
func (d *Dev) Serial() string { return d.serial }

// Sense reads the latest measurement, or returns ErrNotReady when the chip
// has none that was not read before, ErrCleaning during a fan cleaning
// that StartFanCleaning started, ErrWarmingUp or ErrNoValue when it has no
// value at all. Values the chip does not have are NaN.
func (d *Dev) Sense(a *Air) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := time.Now()
	if now.Before(d.cleanUntil) {
		return ErrCleaning
	}
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdDataReady), waitRead, 1)
	if err != nil {
		return fmt.Errorf("sen5x: read data-ready flag: %w", err)
	}
	if w[0]&0xFF == 0 {
		return ErrNotReady
	}
	if w, err = sensirion.Read(&d.d, sensirion.Encode8(cmdRead), waitRead, 8); err != nil {
		return fmt.Errorf("sen5x: read measured values: %w", err)
	}
	*a = decode(w, d.product, now.Sub(d.startAt) < WarmUp)
	switch {
	case a.empty() && now.Sub(d.startAt) < WarmUp:
		return ErrWarmingUp
	case a.empty():
		return ErrNoValue
	}
	return nil
}

// StartFanCleaning runs the fan at full speed for 10 s to blow the dust
// out; Sense returns ErrCleaning meanwhile. The chip accepts it only
// while it measures.
func (d *Dev) StartFanCleaning() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdFanCleaning, waitWrite); err != nil {
		return fmt.Errorf("sen5x: start fan cleaning: %w", err)
	}
	d.cleanUntil = time.Now().Add(Cleaning)
	return nil
}

// AutoCleaning reads the interval of the fan's automatic cleaning; zero
// means off.
func (d *Dev) AutoCleaning() (time.Duration, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s, err := sensirion.ReadUint32(&d.d, cmdAutoClean, waitRead)
	if err != nil {
		return 0, fmt.Errorf("sen5x: read auto cleaning interval: %w", err)
	}
	return time.Duration(s) * time.Second, nil
}

// Status reads the device status register (datasheet 5.4): StatusFanSpeed,
// StatusCleaning, StatusGas, StatusRHT, StatusLaser, StatusFan.
func (d *Dev) Status() (uint32, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := sensirion.ReadUint32(&d.d, cmdStatus, waitRead)
	if err != nil {
		return 0, fmt.Errorf("sen5x: read device status: %w", err)
	}
	return st, nil
}

// Bits of the device status register (datasheet 5.4).
const (
	StatusFanSpeed = 1 << 21 // warning: fan speed out of range
	StatusCleaning = 1 << 19 // fan cleaning active
	StatusGas      = 1 << 7  // error: gas sensor
	StatusRHT      = 1 << 6  // error: internal communication with the RH/T sensor
	StatusLaser    = 1 << 5  // error: laser current out of range
	StatusFan      = 1 << 4  // error: fan blocked or broken
)

// Halt stops the measurement; the chip is idle 200 ms later.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdStop, waitStop); err != nil {
		return fmt.Errorf("sen5x: stop measurement: %w", err)
	}
	return nil
}

// Reset resets the chip as a power cycle does: it is idle afterwards, its
// automatic cleaning interval back to one week; open it again with NewI2C.
func (d *Dev) Reset() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdReset, waitReset); err != nil {
		return fmt.Errorf("sen5x: device reset: %w", err)
	}
	return nil
}

// command writes cmd and its arguments and waits for the chip to execute
// it: the chip does not answer while it does.
func (d *Dev) command(cmd uint16, wait time.Duration, args ...uint16) error {
	return sensirion.Exec(&d.d, sensirion.Encode8(cmd, args...), wait)
}
