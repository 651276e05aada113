package scd30

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

// Addr is the module's only I²C address.
const Addr uint16 = 0x61

// Commands (interface description, section 1.4).
const (
	cmdStart        = 0x0010 // continuous measurement, argument: ambient pressure in mbar or 0
	cmdStop         = 0x0104
	cmdInterval     = 0x4600 // measurement interval in seconds, 2…1800
	cmdDataReady    = 0x0202
	cmdRead         = 0x0300
	cmdAltitude     = 0x5102 // altitude compensation in metres
	cmdFirmware     = 0xD100
	readDelay       = 3 * time.Millisecond
	minInterval     = 2 * time.Second
	maxInterval     = 1800 * time.Second
	minPressureMbar = 700
	maxPressureMbar = 1400
)

// ErrNotReady is returned by Sense when no new measurement is ready yet:
// the module makes one per measurement interval. Ask again later.
var ErrNotReady = errors.New("scd30: no new measurement ready")

// Opts are the options of NewI2C; nil means DefaultOpts.
type Opts struct {
	// Interval between the module's measurements, 2 s to 30 min.
	Interval time.Duration
	// AmbientPressure compensates CO₂ for the air pressure (700 to
	// 1400 hPa); zero leaves it to Altitude.
	AmbientPressure physic.Pressure
	// Altitude of the module in metres, used when AmbientPressure is zero.
	Altitude int
}

// DefaultOpts measures every 2 seconds without pressure compensation.
var DefaultOpts = Opts{Interval: minInterval}

// Env is one measurement.
type Env struct {
	physic.Env
	CO2 float64 // ppm
}

// Dev is an SCD30 on an I²C bus.
type Dev struct {
	d        i2c.Dev
	firmware uint16
	mu       sync.Mutex
}

// NewI2C checks that an SCD30 answers at addr (its firmware version, with
// a matching CRC), sets the measurement interval and the altitude where
// they differ from what the module keeps in its memory, and starts
// continuous measurement. The first measurement is ready one interval later.
func NewI2C(b i2c.Bus, addr uint16, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	interval := opts.Interval
	if interval == 0 {
		interval = minInterval
	}
	if interval < minInterval || interval > maxInterval || interval%time.Second != 0 {
		return nil, fmt.Errorf("scd30: interval %s: want whole seconds from 2s to 30m", opts.Interval)
	}
	mbar := uint16(math.Round(float64(opts.AmbientPressure) / float64(100*physic.Pascal)))
	if mbar != 0 && (mbar < minPressureMbar || mbar > maxPressureMbar) {
		return nil, fmt.Errorf("scd30: ambient pressure %s: want 700 to 1400 hPa", opts.AmbientPressure)
	}
	if opts.Altitude < 0 || opts.Altitude > 10000 {
		return nil, fmt.Errorf("scd30: altitude %d m: want 0 to 10000", opts.Altitude)
	}
	d := &Dev{d: i2c.Dev{Bus: b, Addr: addr}}
	fw, err := d.get(cmdFirmware)
	if err != nil {
		return nil, fmt.Errorf("scd30: read firmware version: %w", err)
	}
	d.firmware = fw
	if err := d.ensure(cmdInterval, uint16(interval/time.Second)); err != nil {
		return nil, fmt.Errorf("scd30: set measurement interval: %w", err)
	}
	if mbar == 0 {
		if err := d.ensure(cmdAltitude, uint16(opts.Altitude)); err != nil {
			return nil, fmt.Errorf("scd30: set altitude: %w", err)
		}
	}
	if err := sensirion.Command(&d.d, cmdStart, mbar); err != nil {
		return nil, fmt.Errorf("scd30: start measuring: %w", err)
	}
	return d, nil
}

func (d *Dev) String() string { return fmt.Sprintf("SCD30{%s}", &d.d) }

// Firmware is the module's firmware version, major in the high byte.
func (d *Dev) Firmware() uint16 { return d.firmware }

// Sense reads the latest measurement, or returns ErrNotReady when the
// module has none that was not read before.
func (d *Dev) Sense(e *Env) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	ready, err := d.get(cmdDataReady)
	if err != nil {
		return fmt.Errorf("scd30: data ready: %w", err)
	}
	if ready != 1 {
		return ErrNotReady
	}
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdRead), readDelay, 6)
	if err != nil {
		return fmt.Errorf("scd30: read measurement: %w", err)
	}
	co2, t, rh := float32At(w, 0), float32At(w, 2), float32At(w, 4)
	for _, v := range []float32{co2, t, rh} {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("scd30: read measurement: not a number (% 04X)", w)
		}
	}
	e.CO2 = float64(co2)
	e.Temperature = physic.ZeroCelsius + physic.Temperature(float64(t)*float64(physic.Celsius))
	e.Humidity = physic.RelativeHumidity(float64(rh) * float64(physic.PercentRH))
	e.Pressure = 0
	return nil
}

// Halt stops continuous measurement.
func (d *Dev) Halt() error {
	if err := sensirion.Command(&d.d, cmdStop); err != nil {
		return fmt.Errorf("scd30: stop measuring: %w", err)
	}
	return nil
}

// get reads the one-word answer of cmd.
func (d *Dev) get(cmd uint16) (uint16, error) {
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmd), readDelay, 1)
	if err != nil {
		return 0, err
	}
	return w[0], nil
}

// ensure sets the parameter of cmd to v unless it already is: the module
// keeps it in non-volatile memory, which needless writes would wear.
func (d *Dev) ensure(cmd, v uint16) error {
	cur, err := d.get(cmd)
	if err != nil || cur == v {
		return err
	}
	return sensirion.Command(&d.d, cmd, v)
}

// float32At is the big-endian IEEE 754 float in words i and i+1.
func float32At(w []uint16, i int) float32 {
	return math.Float32frombits(uint32(w[i])<<16 | uint32(w[i+1]))
}
