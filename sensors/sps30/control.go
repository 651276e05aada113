package sps30

import (
	"fmt"
	"time"

	"github.com/climated/climated/sensors/sensirion"
)

// StartFanCleaning runs the fan at full speed for 10 s to blow the dust
// out; Sense returns ErrCleaning meanwhile. The chip accepts it only
// while it measures.
func (d *Dev) StartFanCleaning() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdFanCleaning, waitShort); err != nil {
		return fmt.Errorf("sps30: start fan cleaning: %w", err)
	}
	d.cleanUntil = time.Now().Add(Cleaning)
	return nil
}

// AutoCleaning reads the interval of the fan's automatic cleaning; zero
// means off. Before firmware 2.2 it reads the interval of the last start.
func (d *Dev) AutoCleaning() (time.Duration, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s, err := sensirion.ReadUint32(&d.d, cmdAutoClean, waitShort)
	if err != nil {
		return 0, fmt.Errorf("sps30: read auto cleaning interval: %w", err)
	}
	return time.Duration(s) * time.Second, nil
}

// Bits of the device status register (datasheet 4.4; firmware 2.2 or
// later).
const (
	StatusFanSpeed = 1 << 21 // warning: fan speed out of range
	StatusLaser    = 1 << 5  // error: laser current out of range
	StatusFan      = 1 << 4  // error: fan blocked or broken
)

// Status reads the device status register: StatusFanSpeed, StatusLaser,
// StatusFan.
func (d *Dev) Status() (uint32, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := sensirion.ReadUint32(&d.d, cmdStatus, 0)
	if err != nil {
		return 0, fmt.Errorf("sps30: read device status: %w", err)
	}
	return st, nil
}

// Halt stops the measurement; the fan and the laser turn off.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdStop, waitStop); err != nil {
		return fmt.Errorf("sps30: stop measurement: %w", err)
	}
	return nil
}

// Sleep stops the measurement and puts the chip to sleep (about 38 µA
// instead of 330 µA idle): its I²C interface is off until Wake.
func (d *Dev) Sleep() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdStop, waitStop); err != nil {
		return fmt.Errorf("sps30: stop measurement: %w", err)
	}
	if err := d.command(cmdSleep, waitShort); err != nil {
		return fmt.Errorf("sps30: sleep: %w", err)
	}
	return nil
}

// Wake wakes the chip up and starts the measurement again, with its
// 30 s warm-up.
func (d *Dev) Wake() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.wake(); err != nil {
		return fmt.Errorf("sps30: wake up: %w", err)
	}
	return d.start()
}

// Reset resets the chip as a power cycle does: it is idle afterwards;
// open it again with NewI2C.
func (d *Dev) Reset() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.command(cmdReset, waitReset); err != nil {
		return fmt.Errorf("sps30: device reset: %w", err)
	}
	return nil
}

// command writes cmd and its arguments and waits for the chip to execute
// it: the chip does not answer while it does.
func (d *Dev) command(cmd uint16, wait time.Duration, args ...uint16) error {
	return sensirion.Exec(&d.d, sensirion.Encode8(cmd, args...), wait)
}
