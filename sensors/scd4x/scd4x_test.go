package scd4x

import (
	"errors"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/sensirion"
)

// Traffic from the datasheet's command table (table 9: codes, sequence
// types and execution times) and examples. "read" sequences are a write of
// the command, the execution time, then a read of its own (section 3.3);
// every word is followed by its CRC-8, polynomial 0x31, init 0xFF
// (section 3.11: 0xBEEF → 0x92).
var (
	wakeUp = i2cfake.Write(0, 0x36, 0xF6)
	// start_periodic_measurement after wake_up's 20 ms.
	start     = i2cfake.Write(20*time.Millisecond, 0x21, 0xB1)
	dataReady = i2cfake.Write(0, 0xE4, 0xB8)
	// get_data_ready_status, 1 ms: 0x8000 is not ready (low 11 bits 0),
	// 0x8006 ready (example of section 3.8.2).
	notReady = i2cfake.Read(time.Millisecond, 0x80, 0x00, 0xA2)
	ready    = i2cfake.Read(time.Millisecond, 0x80, 0x06, 0x04)
	// read_measurement, 1 ms; the example of section 3.5.2: 500 ppm,
	// 25.00 °C (0x6667), 37.00 %RH (0x5EB9).
	readCmd     = i2cfake.Write(0, 0xEC, 0x05)
	measurement = i2cfake.Read(time.Millisecond, 0x01, 0xF4, 0x33, 0x66, 0x67, 0xA2, 0x5E, 0xB9, 0x3C)
)

func TestSenseDatasheetExample(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bus := i2cfake.Sensirion(Addr,
			wakeUp, start,
			dataReady, notReady,
			dataReady, ready, readCmd, measurement,
			i2cfake.Write(0, 0x3F, 0x86), // stop_periodic_measurement
		)
		d, err := NewI2C(bus, Addr)
		if err != nil {
			t.Fatal(err)
		}
		var e Env
		if err := d.Sense(&e); !errors.Is(err, ErrNotReady) {
			t.Fatalf("first Sense: %v, want ErrNotReady", err)
		}
		time.Sleep(Period)
		if err := d.Sense(&e); err != nil {
			t.Fatal(err)
		}
		if e.CO2 != 500 {
			t.Errorf("CO2 = %v, want 500", e.CO2)
		}
		if c := e.Temperature.Celsius(); math.Abs(c-25.0027) > 0.0001 {
			t.Errorf("temperature = %v °C, want 25.0027 (the datasheet rounds to 25)", c)
		}
		if rh := float64(e.Humidity) / float64(physic.PercentRH); math.Abs(rh-37.0016) > 0.0001 {
			t.Errorf("humidity = %v %%, want 37.0016 (the datasheet rounds to 37)", rh)
		}
		if err := d.Halt(); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestNewI2CMeasuring: a chip that was measuring NACKs wake_up; it is
// stopped (500 ms) before it is started again.
func TestNewI2CMeasuring(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bus := i2cfake.Sensirion(Addr,
			wakeUp,
			i2cfake.Write(0, 0x3F, 0x86),
			i2cfake.Write(500*time.Millisecond, 0x21, 0xB1),
		)
		bus.Faults = map[int]error{0: i2cfake.NACK}
		if _, err := NewI2C(bus, Addr); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestFaults(t *testing.T) {
	badCRC := i2cfake.Read(time.Millisecond, 0x01, 0xF4, 0x33, 0x66, 0x67, 0xA3, 0x5E, 0xB9, 0x3C)
	for _, tt := range []struct {
		name   string
		steps  []i2cfake.Step
		faults map[int]error
		want   error
	}{
		{"nack on start", []i2cfake.Step{wakeUp, start}, map[int]error{1: i2cfake.NACK}, i2cfake.NACK},
		{"all ones", []i2cfake.Step{wakeUp, start, dataReady, i2cfake.Read(time.Millisecond, 0xFF, 0xFF, 0xFF)}, nil, sensirion.ErrAllOnes},
		{"bad crc on temperature", []i2cfake.Step{wakeUp, start, dataReady, ready, readCmd, badCRC}, nil, &sensirion.CRCError{}},
		{"nack on read", []i2cfake.Step{wakeUp, start, dataReady, ready, readCmd, measurement}, map[int]error{5: i2cfake.NACK}, i2cfake.NACK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				bus := i2cfake.Sensirion(Addr, tt.steps...)
				bus.Faults = tt.faults
				d, err := NewI2C(bus, Addr)
				if err == nil {
					err = d.Sense(&Env{})
				}
				if !i2cfake.Is(err, tt.want) {
					t.Errorf("err = %v, want %v", err, tt.want)
				}
				if err := bus.Close(); err != nil {
					t.Error(err)
				}
			})
		})
	}
}
