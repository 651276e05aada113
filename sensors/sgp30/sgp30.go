package sgp30

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/sensirion"
)

// Addr is the chip's only I²C address.
const Addr uint16 = 0x58

// WarmUp is how long after init_air_quality the chip reports fixed values.
const WarmUp = 15 * time.Second

// Commands and their maximum execution times (datasheet, table of
// commands).
const (
	cmdInit        = 0x2003 // init_air_quality
	cmdMeasure     = 0x2008 // measure_air_quality: CO2eq, TVOC
	cmdGetBaseline = 0x2015 // get_baseline: CO2eq, TVOC
	cmdSetBaseline = 0x201E // set_baseline, arguments TVOC then CO2eq
	cmdSetHumidity = 0x2061 // set_absolute_humidity, 8.8 fixed point g/m³
	cmdFeatureSet  = 0x202F // get_feature_set_version
	cmdSerial      = 0x3682 // get_serial_id

	waitInit     = 10 * time.Millisecond
	waitMeasure  = 12 * time.Millisecond
	waitBaseline = 10 * time.Millisecond
	waitHumidity = 10 * time.Millisecond
	waitFeature  = 10 * time.Millisecond
	waitSerial   = time.Millisecond // 0.5 ms
)

// ErrWarmingUp is returned by Sense during the first 15 s after
// init_air_quality, when the chip reports 400 ppm and 0 ppb whatever the
// air: not a measurement. Keep calling Sense every second.
var ErrWarmingUp = errors.New("sgp30: warming up: no measurement in the first 15 s after init_air_quality")

// WrongChipError is a feature set whose product type is not the SGP30's (0):
// another chip of Sensirion's gas platform answers at the address.
type WrongChipError struct {
	FeatureSet uint16
}

func (e *WrongChipError) Error() string {
	return fmt.Sprintf("sgp30: feature set 0x%04X: product type %d is not an SGP30 (0)", e.FeatureSet, e.FeatureSet>>12)
}

// Baseline is the state of the chip's baseline compensation, as Baseline
// reads it and Opts.Baseline restores it. The zero value is no baseline.
type Baseline struct {
	CO2, TVOC uint16
}

// Opts are the options of NewI2C; nil means none.
type Opts struct {
	// Baseline, unless zero, is restored right after init_air_quality.
	// Restore only one saved less than a week ago.
	Baseline Baseline
}

// Air is one measurement.
type Air struct {
	CO2  uint16 // CO₂ equivalent in ppm, 400…60000: an estimate, not a measurement of CO₂
	TVOC uint16 // total volatile organic compounds in ppb, 0…60000
}

// Dev is an SGP30 on an I²C bus.
type Dev struct {
	d          i2c.Dev
	serial     uint64
	featureSet uint16
	mu         sync.Mutex
	initAt     time.Time // when init_air_quality was sent
}

// NewI2C checks that an SGP30 answers at addr (its feature set, with a
// matching CRC and the SGP30's product type, and its serial number),
// sends init_air_quality, which starts the measurement and its 15 s
// initialisation phase, and restores opts.Baseline if given.
func NewI2C(b i2c.Bus, addr uint16, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &Opts{}
	}
	d := &Dev{d: i2c.Dev{Bus: b, Addr: addr}}
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdFeatureSet), waitFeature, 1)
	if err != nil {
		return nil, fmt.Errorf("sgp30: read feature set: %w", err)
	}
	if w[0]>>12 != 0 {
		return nil, &WrongChipError{FeatureSet: w[0]}
	}
	d.featureSet = w[0]
	if w, err = sensirion.Read(&d.d, sensirion.Encode8(cmdSerial), waitSerial, 3); err != nil {
		return nil, fmt.Errorf("sgp30: read serial number: %w", err)
	}
	d.serial = uint64(w[0])<<32 | uint64(w[1])<<16 | uint64(w[2])
	if err := d.command(cmdInit, waitInit); err != nil {
		return nil, fmt.Errorf("sgp30: init air quality: %w", err)
	}
	d.initAt = time.Now()
	if opts.Baseline != (Baseline{}) {
		if err := d.SetBaseline(opts.Baseline); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *Dev) String() string { return fmt.Sprintf("SGP30{%s}", &d.d) }

// Serial is the chip's 48-bit serial number.
func (d *Dev) Serial() uint64 { return d.serial }

// FeatureSet is the chip's feature set version: product type in the top 4
// bits (0), product version in the low byte.
func (d *Dev) FeatureSet() uint16 { return d.featureSet }

// Sense measures once; call it every second. During the first 15 s after
// init_air_quality it still sends the command, which the chip's algorithm
// needs, but returns ErrWarmingUp instead of the chip's fixed values.
func (d *Dev) Sense(a *Air) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	start := time.Now()
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdMeasure), waitMeasure, 2)
	if err != nil {
		return fmt.Errorf("sgp30: measure air quality: %w", err)
	}
	if start.Sub(d.initAt) < WarmUp {
		return ErrWarmingUp
	}
	a.CO2, a.TVOC = w[0], w[1]
	return nil
}

// Baseline reads the chip's current baseline, to be saved (the datasheet
// suggests every hour) and restored after the next power-up. A baseline is
// meaningful only after 12 hours of operation since init_air_quality
// without a restored one.
func (d *Dev) Baseline() (Baseline, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdGetBaseline), waitBaseline, 2)
	if err != nil {
		return Baseline{}, fmt.Errorf("sgp30: get baseline: %w", err)
	}
	return Baseline{CO2: w[0], TVOC: w[1]}, nil
}

// SetBaseline restores a baseline that Baseline read. The chip takes its
// two words in the opposite order of get_baseline: TVOC first.
func (d *Dev) SetBaseline(b Baseline) error {
	if b == (Baseline{}) {
		return errors.New("sgp30: set baseline: the zero baseline is no baseline")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdSetBaseline, waitBaseline, b.TVOC, b.CO2); err != nil {
		return fmt.Errorf("sgp30: set baseline: %w", err)
	}
	return nil
}

// SetHumidity gives the chip the absolute humidity of the air, in g/m³
// (see AbsoluteHumidity), for its on-chip compensation; 0 turns the
// compensation off.
func (d *Dev) SetHumidity(gm3 float64) error {
	if math.IsNaN(gm3) || gm3 < 0 || gm3 >= 256 {
		return fmt.Errorf("sgp30: absolute humidity %g g/m³: want 0 to 256", gm3)
	}
	// 8.8 fixed point; 0 would turn compensation off, so the driest air
	// the format can say is 1/256 g/m³.
	v := uint16(math.Round(gm3 * 256))
	if v == 0 && gm3 > 0 {
		v = 1
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdSetHumidity, waitHumidity, v); err != nil {
		return fmt.Errorf("sgp30: set absolute humidity: %w", err)
	}
	return nil
}

// Halt does nothing: the SGP30 has no command that stops it, only the I²C
// general-call reset, which would reset every chip on the bus that
// answers it. Stop calling Sense instead.
func (d *Dev) Halt() error { return nil }

// command writes cmd and its arguments and waits for the chip to execute
// it: the chip does not answer while it does.
func (d *Dev) command(cmd uint16, wait time.Duration, args ...uint16) error {
	return sensirion.Exec(&d.d, sensirion.Encode8(cmd, args...), wait)
}

// AbsoluteHumidity is the water vapour density of air at temperature t and
// relative humidity rh in g/m³, by the datasheet's formula (the
// Magnus formula for the saturation vapour pressure):
//
//	dv = 216.7 · (RH/100 · 6.112 · exp(17.62 · T / (243.12 + T))) / (273.15 + T)
//
// At 25 °C and 50 % it is 11.5 g/m³.
func AbsoluteHumidity(t physic.Temperature, rh physic.RelativeHumidity) float64 {
	c := t.Celsius()
	p := float64(rh) / float64(100*physic.PercentRH) * 6.112 * math.Exp(17.62*c/(243.12+c))
	return 216.7 * p / (273.15 + c)
}
