package scd4x

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/sensirion"
)

// Addr is the chip's only I²C address.
const Addr uint16 = 0x62

// Commands and their execution times (datasheet table 9).
const (
	cmdStart     = 0x21B1 // start_periodic_measurement
	cmdRead      = 0xEC05 // read_measurement: CO₂, temperature, humidity
	cmdStop      = 0x3F86 // stop_periodic_measurement
	cmdDataReady = 0xE4B8 // get_data_ready_status
	cmdWakeUp    = 0x36F6 // wake_up; the chip does not acknowledge it

	waitRead      = time.Millisecond
	waitDataReady = time.Millisecond
	waitStop      = 500 * time.Millisecond
	waitWakeUp    = 20 * time.Millisecond

	// Period is the signal update interval of periodic measurement: the
	// first measurement is ready this long after start.
	Period = 5 * time.Second
)

// ErrNotReady is returned by Sense when no new measurement is ready: the
// chip makes one every 5 s, and its buffer is emptied by a read.
var ErrNotReady = errors.New("scd4x: no new measurement ready")

// Env is one measurement.
type Env struct {
	physic.Env
	CO2 float64 // ppm
}

// Dev is an SCD4x on an I²C bus.
type Dev struct {
	d  i2c.Dev
	mu sync.Mutex
}

// NewI2C starts periodic measurement of the SCD4x at addr. The chip may
// be asleep, idle, or already measuring (for an earlier process): it is
// woken up, and when it NACKs that (a measuring chip accepts only a few
// commands), its measurement is stopped first, since
// start_periodic_measurement is accepted only when idle.
func NewI2C(b i2c.Bus, addr uint16) (*Dev, error) {
	d := &Dev{d: i2c.Dev{Bus: b, Addr: addr}}
	if err := sensirion.Exec(&d.d, sensirion.Encode8(cmdWakeUp), waitWakeUp); err != nil {
		if err := sensirion.Exec(&d.d, sensirion.Encode8(cmdStop), waitStop); err != nil {
			return nil, fmt.Errorf("scd4x: stop periodic measurement: %w", err)
		}
	}
	if err := sensirion.Exec(&d.d, sensirion.Encode8(cmdStart), 0); err != nil {
		return nil, fmt.Errorf("scd4x: start periodic measurement: %w", err)
	}
	return d, nil
}

func (d *Dev) String() string { return fmt.Sprintf("SCD4x{%s}", &d.d) }

// Sense reads the latest measurement, or returns ErrNotReady when there is
// none that was not read before. It asks get_data_ready_status first: a
// read_measurement with an empty buffer is NACKed (datasheet 3.5.2).
func (d *Dev) Sense(e *Env) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	w, err := sensirion.Read(&d.d, sensirion.Encode8(cmdDataReady), waitDataReady, 1)
	if err != nil {
		return fmt.Errorf("scd4x: get data ready status: %w", err)
	}
	// Ready when any of the low 11 bits is set (datasheet 3.8.2).
	if w[0]&0x07FF == 0 {
		return ErrNotReady
	}
	if w, err = sensirion.Read(&d.d, sensirion.Encode8(cmdRead), waitRead, 3); err != nil {
		return fmt.Errorf("scd4x: read measurement: %w", err)
	}
	e.CO2 = float64(w[0])
	e.Temperature = sensirion.Temperature(w[1])
	e.Humidity = sensirion.Humidity(w[2], 0, 100)
	e.Pressure = 0
	return nil
}

// Halt stops periodic measurement; the chip is idle 500 ms later.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := sensirion.Exec(&d.d, sensirion.Encode8(cmdStop), waitStop); err != nil {
		return fmt.Errorf("scd4x: stop periodic measurement: %w", err)
	}
	return nil
}
