package sps30

import (
	"errors"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/sensirion"
)

// Traffic from "Datasheet SPS30", version 2.0, June 2023: the I²C commands
// and execution times of table 8 (section 6.3; reads follow at once, 6.1),
// start measurement's argument (6.3.1: 0x03 float format, dummy 0x00), the
// data-ready flag (6.3.3), the float output format (4.3: ten big-endian
// IEEE 754 floats, each two words with their CRCs), the product type
// "00080000" (6.3.9; the same eight characters as the SHDLC example frame
// of 5.3.8). CRCs are computed by sensirion.Encode, whose CRC-8 is checked
// against the datasheet's example (6.2: CRC(0xBEEF) = 0x92) in
// TestCRCExample and in package sensirion. The all-zero measurement is the
// datasheet's example answer of read measured values (5.3.3); the others
// are chosen, encoded as 4.3 says.

func frame(words ...uint16) []byte { return sensirion.Encode(nil, words...) }

// floats is the answer of read measured values: the four mass
// concentrations given, then number concentrations and typical size.
func floats(pm ...float32) []byte {
	var words []uint16
	for i := range 10 {
		v := float32(20) // #/cm³ and µm, not used
		if i < len(pm) {
			v = pm[i]
		}
		b := math.Float32bits(v)
		words = append(words, uint16(b>>16), uint16(b))
	}
	return frame(words...)
}

var (
	typeCmd = i2cfake.Write(0, 0xD0, 0x02)
	// "00080000": 0x3030 0x3038 0x3030 0x3030.
	productType = i2cfake.Read(0, 0x30, 0x30, 0xF6, 0x30, 0x38, 0x4F, 0x30, 0x30, 0xF6, 0x30, 0x30, 0xF6)
	serialCmd   = i2cfake.Write(0, 0xD0, 0x33)
	serial      = i2cfake.Read(0, frame(0x3941, 0x3236, 0x4533, 0x3735, 0x4632, 0x3441, 0x3830, 0x4237, 0, 0, 0, 0, 0, 0, 0, 0)...)
	// start measurement in the float format.
	startCmd  = i2cfake.Write(0, 0x00, 0x10, 0x03, 0x00, 0xAC)
	dataReady = i2cfake.Write(20*time.Millisecond, 0x02, 0x02)
	ready     = i2cfake.Read(0, 0x00, 0x01, 0xB0)
	notReady  = i2cfake.Read(0, 0x00, 0x00, 0x81)
	readCmd   = i2cfake.Write(0, 0x03, 0x00)
)

var starting = []i2cfake.Step{typeCmd, productType, serialCmd, serial, startCmd}

func TestCRCExample(t *testing.T) {
	if got := frame(0xBEEF); got[2] != 0x92 {
		t.Fatalf("CRC(0xBEEF) = 0x%02X, want 0x92 (the datasheet's example)", got[2])
	}
	if got := frame(0x3030, 0x3038, 0x0300, 0x0001); string(got) != string([]byte{0x30, 0x30, 0xF6, 0x30, 0x38, 0x4F, 0x03, 0x00, 0xAC, 0x00, 0x01, 0xB0}) {
		t.Fatalf("frames of the literal bytes: % X", got)
	}
}

// TestSense is a full cycle from start: not ready at once; during the
// warm-up the measurement is read (faults show) but not given; the
// datasheet's all-zero answer after it is 0 µg/m³, a value; then air.
func TestSense(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := append(starting,
			dataReady, notReady,
			i2cfake.Write(0, 0x02, 0x02), ready, readCmd, i2cfake.Read(0, floats(1, 2, 3, 4)...),
			i2cfake.Write(0, 0x02, 0x02), ready, readCmd, i2cfake.Read(0, frame(make([]uint16, 20)...)...),
			i2cfake.Write(0, 0x02, 0x02), ready, readCmd, i2cfake.Read(0, floats(3.5, 5.25, 6, 6.5)...),
			i2cfake.Write(0, 0x01, 0x04), // stop measurement
		)
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.Serial() != "9A26E375F24A80B7" || d.String() != "SPS30{playback(105)}" {
			t.Errorf("%s: serial %q", d, d.Serial())
		}
		var a Air
		if err := d.Sense(&a); !errors.Is(err, ErrNotReady) {
			t.Fatalf("Sense at once: %v, want ErrNotReady", err)
		}
		time.Sleep(time.Second)
		if err := d.Sense(&a); !errors.Is(err, ErrWarmingUp) || a != (Air{}) {
			t.Fatalf("Sense in the warm-up: %v, %+v; want ErrWarmingUp and nothing", err, a)
		}
		time.Sleep(WarmUp)
		if err := d.Sense(&a); err != nil || a != (Air{}) {
			t.Fatalf("Sense of the datasheet's zeros: %v, %+v", err, a)
		}
		if err := d.Sense(&a); err != nil {
			t.Fatal(err)
		}
		if a != (Air{PM1: 3.5, PM25: 5.25, PM4: 6, PM10: 6.5}) {
			t.Errorf("air = %+v", a)
		}
		if err := d.Halt(); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestAsleep: a sleeping chip does not answer; two wake-ups (the first
// not acknowledged) turn it on (6.3.6).
func TestAsleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		wake := i2cfake.Write(0, 0x11, 0x03)
		steps := []i2cfake.Step{typeCmd, wake, i2cfake.Write(5*time.Millisecond, 0x11, 0x03),
			i2cfake.Write(5*time.Millisecond, 0xD0, 0x02), productType, serialCmd, serial, startCmd,
			i2cfake.Write(20*time.Millisecond, 0x01, 0x04), i2cfake.Write(20*time.Millisecond, 0x10, 0x01),
			wake, i2cfake.Write(5*time.Millisecond, 0x11, 0x03), i2cfake.Write(5*time.Millisecond, 0x00, 0x10, 0x03, 0x00, 0xAC)}
		bus := i2cfake.Sensirion(Addr, steps...)
		bus.Faults = map[int]error{0: i2cfake.NACK, 1: i2cfake.NACK, 10: i2cfake.NACK}
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Sleep(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute)
		if err := d.Wake(); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestFanCleaning: during the 10 s of a cleaning Sense does not read
// (4.2: the values are not updated).
func TestFanCleaning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := append(starting, i2cfake.Write(20*time.Millisecond, 0x56, 0x07),
			i2cfake.Write(5*time.Millisecond, 0x02, 0x02), ready, readCmd, i2cfake.Read(0, floats(3.5, 5.25, 6, 6.5)...))
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(WarmUp)
		if err := d.StartFanCleaning(); err != nil {
			t.Fatal(err)
		}
		var a Air
		time.Sleep(Cleaning - time.Second)
		if err := d.Sense(&a); !errors.Is(err, ErrCleaning) {
			t.Fatalf("Sense 9 s into the cleaning: %v, want ErrCleaning", err)
		}
		time.Sleep(time.Second)
		if err := d.Sense(&a); err != nil || a.PM25 != 5.25 {
			t.Fatalf("Sense after the cleaning: %v, %+v", err, a)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestAutoCleaning: the interval lives in non-volatile memory (4.2): it is
// read (5 ms) and written (20 ms) only when it differs, as a 32-bit count
// of seconds in two words (6.3.8); one week, 604800 s, is the default.
func TestAutoCleaning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		head := starting[:4]
		readInterval := i2cfake.Write(0, 0x80, 0x04)
		week := i2cfake.Read(5*time.Millisecond, frame(0x0009, 0x3A80)...)
		steps := append([]i2cfake.Step(nil), head...)
		steps = append(steps, readInterval, week, i2cfake.Write(0, append([]byte{0x80, 0x04}, frame(0x0005, 0x4600)...)...),
			i2cfake.Write(20*time.Millisecond, 0x00, 0x10, 0x03, 0x00, 0xAC))
		steps = append(steps, head...)
		steps = append(steps, readInterval, week, startCmd)
		bus := i2cfake.Sensirion(Addr, steps...)
		if _, err := NewI2C(bus, Addr, &Opts{AutoCleaning: 96 * time.Hour}); err != nil {
			t.Fatal(err)
		}
		if _, err := NewI2C(bus, Addr, &Opts{AutoCleaning: 168 * time.Hour}); err != nil {
			t.Fatal(err)
		}
		if _, err := NewI2C(bus, Addr, &Opts{AutoCleaning: time.Millisecond}); err == nil {
			t.Error("an interval of 1 ms was accepted")
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestStartRefused: a chip measuring for an earlier process refuses the
// start; it is stopped (20 ms) and started again in the float format.
func TestStartRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := append(starting, i2cfake.Write(0, 0x01, 0x04), i2cfake.Write(20*time.Millisecond, 0x00, 0x10, 0x03, 0x00, 0xAC))
		bus := i2cfake.Sensirion(Addr, steps...)
		bus.Faults = map[int]error{4: i2cfake.NACK}
		if _, err := NewI2C(bus, Addr, nil); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestFaults(t *testing.T) {
	bad := floats(3.5, 5.25, 6, 6.5)
	bad[8] ^= 1 // the CRC of PM2.5's high word
	// A chip measuring in the integer format answers 30 bytes; the rest
	// of the 60 read are the pull-ups' 0xFF.
	short := append(frame(35, 52, 60, 65, 20, 20, 20, 20, 20, 200), make([]byte, 30)...)
	for i := 30; i < 60; i++ {
		short[i] = 0xFF
	}
	for _, tt := range []struct {
		name   string
		steps  []i2cfake.Step
		faults map[int]error
		want   error
	}{
		{"nack, not asleep", []i2cfake.Step{typeCmd, i2cfake.Write(0, 0x11, 0x03), i2cfake.Write(5*time.Millisecond, 0x11, 0x03)}, map[int]error{0: i2cfake.NACK, 1: i2cfake.NACK, 2: i2cfake.NACK}, i2cfake.NACK},
		{"a SEN5x", []i2cfake.Step{typeCmd, i2cfake.Read(0, frame(0x5345, 0x4E35, 0x3500, 0)...)}, nil, &WrongChipError{}},
		{"bad crc on product type", []i2cfake.Step{typeCmd, i2cfake.Read(0, 0x30, 0x30, 0xF6, 0x30, 0x38, 0x4E, 0x30, 0x30, 0xF6, 0x30, 0x30, 0xF6)}, nil, &sensirion.CRCError{}},
		{"bad crc on values", append(starting, dataReady, ready, readCmd, i2cfake.Read(0, bad...)), nil, &sensirion.CRCError{}},
		{"integer format", append(starting, dataReady, ready, readCmd, i2cfake.Read(0, short...)), nil, &sensirion.CRCError{Word: 10}},
		{"not a number", append(starting, dataReady, ready, readCmd, i2cfake.Read(0, floats(float32(math.NaN()))...)), nil, nil},
		{"negative", append(starting, dataReady, ready, readCmd, i2cfake.Read(0, floats(-1)...)), nil, nil},
		{"nack on read", append(starting, dataReady, ready, readCmd), map[int]error{7: i2cfake.NACK}, i2cfake.NACK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				bus := i2cfake.Sensirion(Addr, tt.steps...)
				bus.Faults = tt.faults
				d, err := NewI2C(bus, Addr, nil)
				if err == nil {
					err = d.Sense(&Air{})
				}
				if err == nil || errors.Is(err, ErrWarmingUp) || (tt.want != nil && !i2cfake.Is(err, tt.want)) {
					t.Errorf("err = %v, want %v", err, tt.want)
				}
				if err := bus.Close(); err != nil {
					t.Error(err)
				}
			})
		})
	}
}

func TestStatusAndReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := append(starting,
			i2cfake.Write(20*time.Millisecond, 0xD2, 0x06), i2cfake.Read(0, frame(0x0020, 0x0010)...),
			i2cfake.Write(0, 0xD3, 0x04),
			i2cfake.Write(100*time.Millisecond, 0x80, 0x04), i2cfake.Read(5*time.Millisecond, frame(0, 0)...))
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s, err := d.Status(); err != nil || s != StatusFanSpeed|StatusFan {
			t.Errorf("status 0x%08X, %v; want fan speed and fan bits", s, err)
		}
		if err := d.Reset(); err != nil {
			t.Fatal(err)
		}
		if i, err := d.AutoCleaning(); err != nil || i != 0 {
			t.Errorf("auto cleaning %s, %v; want off", i, err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestWrongChipMessage(t *testing.T) {
	err := error(&WrongChipError{ProductType: "SEN55"})
	if want := `sps30: product type "SEN55" is not an SPS30 ("00080000")`; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
}
