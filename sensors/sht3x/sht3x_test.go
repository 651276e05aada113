package sht3x

import (
	"testing"
	"testing/synctest"
	"time"

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

// TestSense replays the datasheet's transactions (SHT3x-DIS datasheet,
// table 9 and section 4.4): the single-shot command 0x2400 (high
// repeatability, no clock stretching) as a write of its own, then, after
// the measurement duration of table 4 (15.5 ms at most), a read of
// temperature and humidity, each word followed by its CRC-8 (polynomial
// 0x31, init 0xFF). Status (0xF32D, table 17) likewise, 1 ms apart ("the
// first SCL free block indicates a minimal waiting time of 1 ms"). The
// bus NACKs a combined write-then-read or an early read, as the chip does.
func TestSense(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bus := i2cfake.Sensirion(DefaultAddr,
			i2cfake.Write(0, 0xF3, 0x2D),
			i2cfake.Read(time.Millisecond, 0x80, 0x10, 0xE1), // after a power-up: alert pending, reset detected
			i2cfake.Write(0, 0x24, 0x00),
			// 0x6666 is 40 % of full scale: −45 + 175 · 0.4 = 25 °C exactly;
			// 0x8000: 100 · 32768 / 65535 = 50.00076 %RH.
			i2cfake.Read(15500*time.Microsecond, 0x66, 0x66, 0x93, 0x80, 0x00, 0xA2),
			i2cfake.Write(0, 0x30, 0xA2), // soft reset
		)
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
	})
}

// TestSenseRepeatability: each repeatability's command and measurement
// duration (datasheet tables 4 and 9: 15.5, 6.5 and 4.5 ms).
func TestSenseRepeatability(t *testing.T) {
	for _, tt := range []struct {
		r    Repeatability
		cmd  byte
		wait time.Duration
	}{
		{High, 0x00, 15500 * time.Microsecond},
		{Medium, 0x0B, 6500 * time.Microsecond},
		{Low, 0x16, 4500 * time.Microsecond},
	} {
		synctest.Test(t, func(t *testing.T) {
			bus := i2cfake.Sensirion(DefaultAddr,
				i2cfake.Write(0, 0xF3, 0x2D), i2cfake.Read(time.Millisecond, 0x80, 0x10, 0xE1),
				i2cfake.Write(0, 0x24, tt.cmd), i2cfake.Read(tt.wait, 0x66, 0x66, 0x93, 0x80, 0x00, 0xA2),
			)
			d, err := NewI2C(bus, DefaultAddr, &Opts{Repeatability: tt.r})
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Sense(&physic.Env{}); err != nil {
				t.Fatal(err)
			}
			if err := bus.Close(); err != nil {
				t.Fatal(err)
			}
		})
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
