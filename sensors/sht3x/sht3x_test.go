package sht3x

import (
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/sensirion"
)

// status is the traffic of NewI2C: the status register, 0x8010 after a
// power-up (alert pending, reset detected).
var status = []i2ctest.IO{
	{Addr: 0x44, W: []byte{0xF3, 0x2D}},
	{Addr: 0x44, R: []byte{0x80, 0x10, 0xE1}},
}

func TestSense(t *testing.T) {
	bus := i2cfake.New(append(status,
		i2ctest.IO{Addr: 0x44, W: []byte{0x24, 0x00}},
		// 0x6666 is 40 % of full scale: −45 + 175 · 0.4 = 25 °C exactly;
		// 0x8000: 100 · 32768 / 65535 = 50.00076 %RH.
		i2ctest.IO{Addr: 0x44, R: []byte{0x66, 0x66, 0x93, 0x80, 0x00, 0xA2}},
		i2ctest.IO{Addr: 0x44, W: []byte{0x30, 0xA2}},
	)...)
	d, err := NewI2C(bus, DefaultAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	var e physic.Env
	if err := d.Sense(&e); err != nil {
		t.Fatal(err)
	}
	if want := physic.ZeroCelsius + 25*physic.Celsius; e.Temperature != want {
		t.Errorf("temperature = %s, want %s", e.Temperature, want)
	}
	if want := physic.RelativeHumidity(5000076); e.Humidity != want {
		t.Errorf("humidity = %s (%d), want %s", e.Humidity, e.Humidity, want)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestConversionLimits(t *testing.T) {
	tests := []struct {
		raw uint16
		t   physic.Temperature
		rh  physic.RelativeHumidity
	}{
		{0x0000, physic.ZeroCelsius - 45*physic.Celsius, 0},
		{0xFFFF, physic.ZeroCelsius + 130*physic.Celsius, 100 * physic.PercentRH},
	}
	for _, tt := range tests {
		if got := Temperature(tt.raw); got != tt.t {
			t.Errorf("Temperature(0x%04X) = %s, want %s", tt.raw, got, tt.t)
		}
		if got := Humidity(tt.raw); got != tt.rh {
			t.Errorf("Humidity(0x%04X) = %s, want %s", tt.raw, got, tt.rh)
		}
	}
}

func TestFaults(t *testing.T) {
	measure := i2ctest.IO{Addr: 0x44, W: []byte{0x24, 0x00}}
	i2cfake.CheckFaults(t, []i2cfake.Fault{
		{Name: "nack", Ops: status[:1], Faults: map[int]error{0: i2cfake.NACK}, Want: i2cfake.NACK},
		{Name: "all ones at init", Ops: []i2ctest.IO{status[0], {Addr: 0x44, R: []byte{0xFF, 0xFF, 0xFF}}}, Want: sensirion.ErrAllOnes},
		{Name: "bad crc at init", Ops: []i2ctest.IO{status[0], {Addr: 0x44, R: []byte{0x80, 0x10, 0xE0}}}, Want: &sensirion.CRCError{}},
		{Name: "bad crc on humidity", Ops: append(status[:2:2], measure,
			i2ctest.IO{Addr: 0x44, R: []byte{0x66, 0x66, 0x93, 0x80, 0x00, 0xA3}}), Want: &sensirion.CRCError{}},
		{Name: "nack on read", Ops: append(status[:2:2], measure, i2ctest.IO{Addr: 0x44, R: make([]byte, 6)}),
			Faults: map[int]error{3: i2cfake.NACK}, Want: i2cfake.NACK},
	}, func(b *i2cfake.Bus) error {
		d, err := NewI2C(b, DefaultAddr, nil)
		if err != nil {
			return err
		}
		return d.Sense(&physic.Env{})
	})
}

func TestBadOpts(t *testing.T) {
	if _, err := NewI2C(i2cfake.New(), DefaultAddr, &Opts{Repeatability: 7}); err == nil {
		t.Error("NewI2C accepted repeatability 7")
	}
}
