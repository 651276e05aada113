package hw

import (
	"errors"
	"fmt"
	"math"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/devices/v3/ccs811"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/scd30"
	"github.com/climated/climated/sensors/scd4x"
)

// errNotReady is a chip that has no new measurement yet: not a fault, the
// poller asks again a second later.
var errNotReady = errors.New("no new measurement ready yet")

// scd4xDev reads climated's own SCD4x driver rather than periph's, whose
// reads are combined write-then-read transactions without the execution
// time (the chip NACKs them), whose Sense sleeps in a loop holding its
// lock, and whose temperature-offset conversions are wrong: the chip's own
// offset is never read or written, the calibration offsets are applied
// here instead. sense asks data-ready without sleeping; errNotReady makes
// the poller ask again a second later.
type scd4xDev struct{ d *scd4x.Dev }

func openSCD4x(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
	// NewI2C wakes the chip (stopping a measurement it was making for
	// someone else) and starts periodic measurement, one every 5 s.
	d, err := scd4x.NewI2C(b, addr)
	if err != nil {
		return nil, err
	}
	return scd4xDev{d}, nil
}

func (s scd4xDev) sense() ([]value, error) {
	var e scd4x.Env
	if err := s.d.Sense(&e); err != nil {
		if errors.Is(err, scd4x.ErrNotReady) {
			return nil, errNotReady
		}
		return nil, err
	}
	return []value{
		{sensors.CO2, e.CO2},
		{sensors.Temperature, e.Temperature.Celsius()},
		{sensors.Humidity, float64(e.Humidity) / float64(physic.PercentRH)},
	}, nil
}

type scd30Dev struct{ d *scd30.Dev }

func openSCD30(b i2c.Bus, addr uint16, o startOpts) (device, error) {
	alt := int(math.Round(max(o.altitude, 0)))
	d, err := scd30.NewI2C(b, addr, &scd30.Opts{Altitude: alt})
	if err != nil {
		return nil, err
	}
	return scd30Dev{d}, nil
}

func (s scd30Dev) sense() ([]value, error) {
	var e scd30.Env
	if err := s.d.Sense(&e); err != nil {
		if errors.Is(err, scd30.ErrNotReady) {
			return nil, errNotReady
		}
		return nil, err
	}
	return []value{
		{sensors.CO2, e.CO2},
		{sensors.Temperature, e.Temperature.Celsius()},
		{sensors.Humidity, float64(e.Humidity) / float64(physic.PercentRH)},
	}, nil
}

// CCS811 (datasheet): HW_ID register 0x20 holds 0x81; status bits.
const (
	ccs811HWID      = 0x81
	ccs811Error     = 0x01
	ccs811DataReady = 0x08
	ccs811AppMode   = 0x80
	ccs811MinECO2   = 400
	ccs811MaxECO2   = 8192
)

// ccs811Dev reads periph's CCS811 driver but checks what it does not: the
// status register's error, data-ready and application-mode bits, and the
// eCO2 range (the driver masks the top bits of a corrupt value instead).
type ccs811Dev struct{ d *ccs811.Dev }

func openCCS811(b i2c.Bus, addr uint16, _ startOpts) (device, error) {
	id, err := readReg8(b, addr, 0x20)
	if err != nil {
		return nil, err
	}
	if id != ccs811HWID {
		return nil, &WrongChipError{Reg: "0x20", Got: uint16(id), Want: []uint16{ccs811HWID}}
	}
	d, err := ccs811.New(b, &ccs811.Opts{Addr: addr, MeasurementMode: ccs811.MeasurementModeConstant1000})
	if err != nil {
		return nil, err
	}
	return ccs811Dev{d}, nil
}

func (c ccs811Dev) sense() ([]value, error) {
	var v ccs811.SensorValues
	if err := c.d.Sense(&v); err != nil {
		return nil, err
	}
	switch {
	case v.Status&ccs811Error != 0:
		return nil, fmt.Errorf("chip reports an error: %w", v.Error)
	case v.Status&ccs811AppMode == 0:
		return nil, errors.New("chip is in boot mode, not measuring")
	case v.Status&ccs811DataReady == 0:
		return nil, errNotReady
	case v.ECO2 < ccs811MinECO2 || v.ECO2 > ccs811MaxECO2:
		return nil, &RangeError{Measurement: sensors.CO2, Value: float64(v.ECO2), Min: ccs811MinECO2, Max: ccs811MaxECO2}
	}
	return []value{{sensors.CO2, float64(v.ECO2)}}, nil
}
