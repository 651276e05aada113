package sht4x

import (
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/sensirion"
)

// serial is the traffic of NewI2C: serial number 0x1A2B3C4D.
var serial = []i2ctest.IO{
	{Addr: 0x44, W: []byte{0x89}},
	{Addr: 0x44, R: []byte{0x1A, 0x2B, 0x6D, 0x3C, 0x4D, 0xF6}},
}

// TestSense replays the datasheet's transactions (SHT4x datasheet, its
// command table and measurement durations): a one-byte command as a write of its own,
// then, after its execution time, a read of two words, each followed by
// its CRC-8 (polynomial 0x31, init 0xFF): serial number 0x89 (1 ms),
// measurement with high precision 0xFD (8.3 ms at most), soft reset 0x94.
// The bus NACKs a combined write-then-read or an early read.
func TestSense(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bus := i2cfake.Sensirion(DefaultAddr,
			i2cfake.Write(0, 0x89),
			i2cfake.Read(time.Millisecond, 0x1A, 0x2B, 0x6D, 0x3C, 0x4D, 0xF6), // serial 0x1A2B3C4D
			i2cfake.Write(0, 0xFD),
			// 0x6666 → −45 + 175 · 0.4 = 25 °C; 0x6666 → −6 + 125 · 0.4 = 44 %RH.
			i2cfake.Read(8300*time.Microsecond, 0x66, 0x66, 0x93, 0x66, 0x66, 0x93),
			i2cfake.Write(0, 0x94),
		)
		d, err := NewI2C(bus, DefaultAddr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.Serial() != 0x1A2B3C4D {
			t.Errorf("serial = 0x%08X", d.Serial())
		}
		var e physic.Env
		if err := d.Sense(&e); err != nil {
			t.Fatal(err)
		}
		if want := physic.ZeroCelsius + 25*physic.Celsius; e.Temperature != want {
			t.Errorf("temperature = %s, want %s", e.Temperature, want)
		}
		if want := 44 * physic.PercentRH; e.Humidity != want {
			t.Errorf("humidity = %s, want %s", e.Humidity, want)
		}
		if err := d.Halt(); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSensePrecision: each precision's command and measurement duration
// (the datasheet's command table: 0xFD 8.3 ms, 0xF6 4.5 ms, 0xE0 1.7 ms).
func TestSensePrecision(t *testing.T) {
	for _, tt := range []struct {
		p    Precision
		cmd  byte
		wait time.Duration
	}{
		{High, 0xFD, 8300 * time.Microsecond},
		{Medium, 0xF6, 4500 * time.Microsecond},
		{Low, 0xE0, 1700 * time.Microsecond},
	} {
		synctest.Test(t, func(t *testing.T) {
			bus := i2cfake.Sensirion(DefaultAddr,
				i2cfake.Write(0, 0x89), i2cfake.Read(time.Millisecond, 0x1A, 0x2B, 0x6D, 0x3C, 0x4D, 0xF6),
				i2cfake.Write(0, tt.cmd), i2cfake.Read(tt.wait, 0x66, 0x66, 0x93, 0x66, 0x66, 0x93),
			)
			d, err := NewI2C(bus, DefaultAddr, &Opts{Precision: tt.p})
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

func TestHumidityCropped(t *testing.T) {
	tests := []struct {
		raw  uint16
		want physic.RelativeHumidity
	}{
		{0x0000, 0},                      // −6 % cropped
		{0xFFFF, 100 * physic.PercentRH}, // 119 % cropped
		{0x0C49, 0},                      // just under 0 %
		{0x8000, 5650095},                // 56.500953 %
	}
	for _, tt := range tests {
		if got := Humidity(tt.raw); got != tt.want {
			t.Errorf("Humidity(0x%04X) = %s (%d), want %s", tt.raw, got, got, tt.want)
		}
	}
}

func TestFaults(t *testing.T) {
	measure := i2ctest.IO{Addr: 0x44, W: []byte{0xFD}}
	i2cfake.CheckFaults(t, []i2cfake.Fault{
		{Name: "nack", Ops: serial[:1], Faults: map[int]error{0: i2cfake.NACK}, Want: i2cfake.NACK},
		{Name: "all ones", Ops: []i2ctest.IO{serial[0], {Addr: 0x44, R: []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}}}, Want: sensirion.ErrAllOnes},
		{Name: "bad crc on serial", Ops: []i2ctest.IO{serial[0], {Addr: 0x44, R: []byte{0x1A, 0x2B, 0x6D, 0x3C, 0x4D, 0xF7}}}, Want: &sensirion.CRCError{}},
		{Name: "bad crc on temperature", Ops: append(serial[:2:2], measure,
			i2ctest.IO{Addr: 0x44, R: []byte{0x66, 0x67, 0x93, 0x66, 0x66, 0x93}}), Want: &sensirion.CRCError{}},
	}, func(b *i2cfake.Bus) error {
		d, err := NewI2C(b, DefaultAddr, nil)
		if err != nil {
			return err
		}
		return d.Sense(&physic.Env{})
	})
}
