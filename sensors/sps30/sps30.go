package sps30

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/climated/climated/sensors/sensirion"
)

// Addr is the module's only I²C address (the SEN5x's too).
const Addr uint16 = 0x69

// ProductType is what an SPS30 answers to read product type (datasheet
// 6.3.9: always "00080000", recommended as the product identifier).
const ProductType = "00080000"

// Commands and their execution times (datasheet table 8). Reads have
// none: "the data is ready to read immediately after the address pointer
// is set" (6.1), in a transaction of its own.
const (
	cmdStart       = 0x0010 // start measurement, argument: the output format
	cmdStop        = 0x0104 // stop measurement
	cmdDataReady   = 0x0202 // read data-ready flag
	cmdRead        = 0x0300 // read measured values
	cmdSleep       = 0x1001 // sleep, from idle only
	cmdWakeUp      = 0x1103 // wake-up, sent twice
	cmdFanCleaning = 0x5607 // start fan cleaning, while measuring only
	cmdAutoClean   = 0x8004 // read/write auto cleaning interval, seconds as two words
	cmdProductType = 0xD002 // read product type, 8 ASCII characters
	cmdSerial      = 0xD033 // read serial number, 32 ASCII characters
	cmdStatus      = 0xD206 // read device status register, two words
	cmdReset       = 0xD304 // device reset

	// formatFloat is start measurement's argument: output format 0x03,
	// big-endian IEEE 754 floats, then a dummy byte 0x00 (6.3.1).
	formatFloat = 0x0300

	waitStart      = 20 * time.Millisecond
	waitStop       = 20 * time.Millisecond
	waitShort      = 5 * time.Millisecond // sleep, wake-up, fan cleaning, reading the cleaning interval
	waitCleanWrite = 20 * time.Millisecond
	waitReset      = 100 * time.Millisecond

	valueWords = 20 // ten floats: four mass, five number concentrations, the typical size
)

const (
	// WarmUp is how long after start the measurement is not yet stable
	// (datasheet table 1, typical start-up time: 8 s at 200 to 3000
	// particles/cm³, 16 s at 100 to 200, 30 s at 50 to 100, the clean air
	// of a home).
	WarmUp = 30 * time.Second
	// Cleaning is how long the fan cleaning runs, during which the values
	// are not updated (datasheet 4.2).
	Cleaning = 10 * time.Second
)

var (
	// ErrNotReady is returned by Sense when no new measurement is ready:
	// the module makes one every second.
	ErrNotReady = errors.New("sps30: no new measurement ready")
	// ErrWarmingUp is returned by Sense in the first 30 s after start.
	ErrWarmingUp = errors.New("sps30: warming up: no stable measurement in the first 30 s")
	// ErrCleaning is returned by Sense during the 10 s of a fan cleaning
	// that StartFanCleaning started: the values are not updated meanwhile.
	ErrCleaning = errors.New("sps30: fan cleaning: no measurement for 10 s")
)

// WrongChipError is a product type other than the SPS30's: another chip
// (a SEN5x) answers at the address.
type WrongChipError struct {
	ProductType string
}

func (e *WrongChipError) Error() string {
	return fmt.Sprintf("sps30: product type %q is not an SPS30 (%q)", e.ProductType, ProductType)
}

// Opts are the options of NewI2C; nil means none.
type Opts struct {
	// AutoCleaning is the interval of the fan's automatic cleaning, in
	// whole seconds. Zero leaves the chip's (one week unless set; the chip
	// keeps it in non-volatile memory, so it is written only when it
	// differs); negative turns it off.
	AutoCleaning time.Duration
}

// Air is one measurement.
type Air struct {
	PM1, PM25, PM4, PM10 float64 // mass concentration, µg/m³
}

// Dev is an SPS30 on an I²C bus.
type Dev struct {
	d      i2c.Dev
	serial string

	mu         sync.Mutex
	startAt    time.Time // when the measurement was started
	cleanUntil time.Time // end of the fan cleaning StartFanCleaning started
}

// NewI2C checks that an SPS30 answers at addr (its product type, with
// matching CRCs, and its serial number), waking it up if it sleeps, sets
// the automatic cleaning interval if opts asks, and starts the measurement
// in the float format. A chip left measuring by an earlier process refuses
// the start (only an idle chip accepts it): it is stopped and started
// again, so that its output format is known.
func NewI2C(b i2c.Bus, addr uint16, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &Opts{}
	}
	interval, err := sensirion.CleaningInterval(opts.AutoCleaning)
	if err != nil {
		return nil, fmt.Errorf("sps30: %w", err)
	}
	d := &Dev{d: i2c.Dev{Bus: b, Addr: addr}}
	if err := d.identify(); err != nil {
		return nil, err
	}
	if opts.AutoCleaning != 0 {
		if err := d.ensureAutoCleaning(interval); err != nil {
			return nil, err
		}
	}
	if err := d.start(); err != nil {
		return nil, err
	}
	return d, nil
}

// identify reads the product type, waking the chip up first if it does
// not answer, and the serial number.
func (d *Dev) identify() error {
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdProductType), 0, 4)
	if err != nil {
		if d.wake() != nil {
			return fmt.Errorf("sps30: read product type: %w", err)
		}
		if w, err = sensirion.Read(&d.d, sensirion.Encode8(cmdProductType), 0, 4); err != nil {
			return fmt.Errorf("sps30: read product type: %w", err)
		}
	}
	if pt := sensirion.String(w); pt != ProductType {
		return &WrongChipError{ProductType: pt}
	}
	if w, err = sensirion.Read(&d.d, sensirion.Encode8(cmdSerial), 0, 16); err != nil {
		return fmt.Errorf("sps30: read serial number: %w", err)
	}
	d.serial = sensirion.String(w)
	return nil
}

// wake sends wake-up twice: the first, which a sleeping chip does not
// acknowledge, turns its interface on (datasheet 6.3.6).
func (d *Dev) wake() error {
	_ = d.command(cmdWakeUp, waitShort)
	return d.command(cmdWakeUp, waitShort)
}

// ensureAutoCleaning writes the interval unless the chip has it already.
func (d *Dev) ensureAutoCleaning(interval uint32) error {
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdAutoClean), waitShort, 2)
	if err != nil {
		return fmt.Errorf("sps30: read auto cleaning interval: %w", err)
	}
	if sensirion.Uint32(w[0], w[1]) == interval {
		return nil
	}
	if err := d.command(cmdAutoClean, waitCleanWrite, uint16(interval>>16), uint16(interval)); err != nil {
		return fmt.Errorf("sps30: write auto cleaning interval: %w", err)
	}
	return nil
}

// start starts the measurement, stopping it first if the chip refuses.
func (d *Dev) start() error {
	if err := d.command(cmdStart, waitStart, formatFloat); err != nil {
		if err := d.command(cmdStop, waitStop); err != nil {
			return fmt.Errorf("sps30: stop measurement: %w", err)
		}
		if err := d.command(cmdStart, waitStart, formatFloat); err != nil {
			return fmt.Errorf("sps30: start measurement: %w", err)
		}
	}
	d.startAt = time.Now()
	return nil
}

func (d *Dev) String() string { return fmt.Sprintf("SPS30{%s}", &d.d) }

// Serial is the chip's serial number.
func (d *Dev) Serial() string { return d.serial }

// Sense reads the latest measurement, or returns ErrNotReady when the chip
// has none that was not read before, ErrCleaning during a fan cleaning
// that StartFanCleaning started, ErrWarmingUp in the first 30 s.
func (d *Dev) Sense(a *Air) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := time.Now()
	if now.Before(d.cleanUntil) {
		return ErrCleaning
	}
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdDataReady), 0, 1)
	if err != nil {
		return fmt.Errorf("sps30: read data-ready flag: %w", err)
	}
	if w[0]&0xFF == 0 {
		return ErrNotReady
	}
	if w, err = sensirion.Read(&d.d, sensirion.Encode8(cmdRead), 0, valueWords); err != nil {
		return fmt.Errorf("sps30: read measured values: %w", err)
	}
	var pm [4]float64
	for i := range pm {
		v := float64(math.Float32frombits(sensirion.Uint32(w[2*i], w[2*i+1])))
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("sps30: read measured values: mass concentration %d is %g (% 04X)", i, v, w[2*i:2*i+2])
		}
		pm[i] = v
	}
	if now.Sub(d.startAt) < WarmUp {
		return ErrWarmingUp
	}
	*a = Air{PM1: pm[0], PM25: pm[1], PM4: pm[2], PM10: pm[3]}
	return nil
}
