package sen5x

import (
	"errors"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/sensirion"
)

// Traffic from "Datasheet SEN5x", version 2, March 2022: the commands and
// execution times of table 12 (section 6.1), the data-ready flag of
// 6.1.4 (byte 0 always 0x00, byte 1 the flag), the measured values of
// 6.1.5, the 32-character product name and serial number of 6.1.14 and
// 6.1.15. The datasheet gives no example frames for these commands: the
// values are chosen, their encoding is the datasheet's, and their CRCs are
// computed by sensirion.Encode, whose CRC-8 is checked against the
// datasheet's own example (section 6, "Checksum Calculation": CRC(0xBEEF)
// = 0x92) in TestCRCExample and in package sensirion.

// text is a 32-character ASCII answer (NUL-padded), 16 words with CRCs.
func text(s string) []byte {
	b := make([]byte, 32)
	copy(b, s)
	words := make([]uint16, 16)
	for i := range words {
		words[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return sensirion.Encode(nil, words...)
}

// frame is words with their CRCs.
func frame(words ...uint16) []byte { return sensirion.Encode(nil, words...) }

var (
	nameCmd   = i2cfake.Write(0, 0xD0, 0x14)
	serialCmd = i2cfake.Write(0, 0xD0, 0x33)
	serial    = i2cfake.Read(20*time.Millisecond, text("B4F3C2A1D0E9F8A7")...)
	startCmd  = i2cfake.Write(0, 0x00, 0x21)
	// Sense after the start's 50 ms; 0x0001 ready, 0x0000 not.
	dataReady = i2cfake.Write(50*time.Millisecond, 0x02, 0x02)
	ready     = i2cfake.Read(20*time.Millisecond, 0x00, 0x01, 0xB0)
	notReady  = i2cfake.Read(20*time.Millisecond, 0x00, 0x00, 0x81)
	readCmd   = i2cfake.Write(0, 0x03, 0xC4)
)

// starting is NewI2C's traffic for the product name.
func starting(product string) []i2cfake.Step {
	return []i2cfake.Step{
		nameCmd, i2cfake.Read(20*time.Millisecond, text(product)...),
		serialCmd, serial,
		startCmd,
	}
}

// values is the answer of read measured values, 20 ms after the command.
func values(words ...uint16) i2cfake.Step {
	return i2cfake.Read(20*time.Millisecond, frame(words...)...)
}

// measured: PM1.0 3.2, PM2.5 5.1, PM4.0 6.0, PM10 6.4 µg/m³ (×10), 45.50 %RH
// (×100), 23.50 °C (×200), VOC index 101.0, NOx index 1.0 (×10).
var measured = []uint16{32, 51, 60, 64, 4550, 4700, 1010, 10}

func TestCRCExample(t *testing.T) {
	if got := frame(0xBEEF); got[2] != 0x92 {
		t.Fatalf("CRC(0xBEEF) = 0x%02X, want 0x92 (the datasheet's example)", got[2])
	}
	if got := frame(0x0001); got[2] != ready.R[2] {
		t.Fatalf("data-ready frame CRC 0x%02X, want 0x%02X", ready.R[2], got[2])
	}
}

// TestSenseSEN55 is a full cycle from power-up: no measurement in the
// first second; then temperature and humidity, while the indices are
// still unknown (0x7FFF) and the particulate matter warms up; after 30 s
// every value.
func TestSenseSEN55(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		early := []uint16{30, 50, 60, 60, 4550, 4700, 0x7FFF, 0x7FFF}
		steps := append(starting("SEN55"),
			dataReady, notReady,
			i2cfake.Write(0, 0x02, 0x02), ready, readCmd, values(early...),
			i2cfake.Write(0, 0x02, 0x02), ready, readCmd, values(measured...),
			i2cfake.Write(0, 0x01, 0x04), // stop measurement
		)
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.Product() != "SEN55" || d.Serial() != "B4F3C2A1D0E9F8A7" || d.String() != "SEN55{playback(105)}" {
			t.Errorf("%s: product %q, serial %q", d, d.Product(), d.Serial())
		}
		var a Air
		if err := d.Sense(&a); !errors.Is(err, ErrNotReady) {
			t.Fatalf("Sense at once: %v, want ErrNotReady", err)
		}
		time.Sleep(time.Second)
		if err := d.Sense(&a); err != nil {
			t.Fatal(err)
		}
		check(t, "warming up", a, Air{PM1: nan, PM25: nan, PM4: nan, PM10: nan, Humidity: 45.5, Temperature: 23.5, VOC: nan, NOx: nan})
		time.Sleep(WarmUp)
		if err := d.Sense(&a); err != nil {
			t.Fatal(err)
		}
		check(t, "warm", a, Air{PM1: 3.2, PM25: 5.1, PM4: 6, PM10: 6.4, Humidity: 45.5, Temperature: 23.5, VOC: 101, NOx: 1})
		if err := d.Halt(); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

var nan = math.NaN()

// check compares a with want, NaN (no value) equal to NaN only.
func check(t *testing.T, name string, a, want Air) {
	t.Helper()
	got := []float64{a.PM1, a.PM25, a.PM4, a.PM10, a.Humidity, a.Temperature, a.VOC, a.NOx}
	exp := []float64{want.PM1, want.PM25, want.PM4, want.PM10, want.Humidity, want.Temperature, want.VOC, want.NOx}
	for i := range got {
		if math.IsNaN(got[i]) != math.IsNaN(exp[i]) || (!math.IsNaN(got[i]) && math.Abs(got[i]-exp[i]) > 1e-9) {
			t.Errorf("%s: %+v, want %+v", name, a, want)
			return
		}
	}
}

// TestVariants: what a variant does not measure is no value, whatever the
// word; a no-value word is no value, never 0; negative temperatures.
func TestVariants(t *testing.T) {
	tests := []struct {
		name, product string
		words         []uint16
		want          Air
	}{
		{"sen54 has no NOx", "SEN54", []uint16{32, 51, 60, 64, 4550, 4700, 1010, 0}, Air{3.2, 5.1, 6, 6.4, 45.5, 23.5, 101, nan}},
		{"sen50 has particulate matter only", "SEN50", []uint16{32, 51, 60, 64, 0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF}, Air{3.2, 5.1, 6, 6.4, nan, nan, nan, nan}},
		{"sen50 words of other values", "SEN50", []uint16{32, 51, 60, 64, 0, 0, 0, 0}, Air{3.2, 5.1, 6, 6.4, nan, nan, nan, nan}},
		{"unknown pm", "SEN55", []uint16{0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 4550, 0xFF38, 1010, 10}, Air{nan, nan, nan, nan, 45.5, -1, 101, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				steps := append(starting(tt.product), dataReady, ready, readCmd, values(tt.words...))
				steps[5].Wait = WarmUp // the first Sense after the warm-up
				bus := i2cfake.Sensirion(Addr, steps...)
				d, err := NewI2C(bus, Addr, nil)
				if err != nil {
					t.Fatal(err)
				}
				time.Sleep(WarmUp)
				var a Air
				if err := d.Sense(&a); err != nil {
					t.Fatal(err)
				}
				check(t, tt.name, a, tt.want)
				if err := bus.Close(); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

// TestNoValue: a SEN50 has nothing to say while its particulate matter
// warms up, and a chip that reports nothing after it is a fault.
func TestNoValue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		none := []uint16{0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF}
		steps := append(starting("SEN50"),
			dataReady, ready, readCmd, values(32, 51, 60, 64, 0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF),
			i2cfake.Write(0, 0x02, 0x02), ready, readCmd, values(none...))
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		var a Air
		time.Sleep(time.Second)
		if err := d.Sense(&a); !errors.Is(err, ErrWarmingUp) {
			t.Errorf("Sense in the warm-up: %v, want ErrWarmingUp", err)
		}
		time.Sleep(WarmUp)
		if err := d.Sense(&a); !errors.Is(err, ErrNoValue) {
			t.Errorf("Sense of no value: %v, want ErrNoValue", err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestFanCleaning: during the 10 s of a cleaning Sense does not read
// (datasheet 5.2: the values are not updated); after it, it does.
func TestFanCleaning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := append(starting("SEN55"),
			i2cfake.Write(50*time.Millisecond, 0x56, 0x07),
			i2cfake.Write(20*time.Millisecond, 0x02, 0x02), ready, readCmd, values(measured...))
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
		if err := d.Sense(&a); err != nil {
			t.Fatal(err)
		}
		check(t, "after cleaning", a, Air{3.2, 5.1, 6, 6.4, 45.5, 23.5, 101, 1})
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestAutoCleaning: the interval is written before the start as a 32-bit
// count of seconds in two words (datasheet 6.1.13), 0 to turn it off, and
// read back; the default is 604800 s, one week (5.2).
func TestAutoCleaning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		head := starting("SEN55")[:4]
		steps := append(head, i2cfake.Write(0, append([]byte{0x80, 0x04}, frame(0x0005, 0x4600)...)...), // 4 days, 345600 s
			i2cfake.Write(20*time.Millisecond, 0x00, 0x21))
		steps = append(steps, head...)
		steps = append(steps, i2cfake.Write(0, append([]byte{0x80, 0x04}, frame(0, 0)...)...), // off
			i2cfake.Write(20*time.Millisecond, 0x00, 0x21),
			i2cfake.Write(50*time.Millisecond, 0x80, 0x04), i2cfake.Read(20*time.Millisecond, frame(0x0009, 0x3A80)...))
		bus := i2cfake.Sensirion(Addr, steps...)
		if _, err := NewI2C(bus, Addr, &Opts{AutoCleaning: 96 * time.Hour}); err != nil {
			t.Fatal(err)
		}
		d, err := NewI2C(bus, Addr, &Opts{AutoCleaning: -1})
		if err != nil {
			t.Fatal(err)
		}
		if i, err := d.AutoCleaning(); err != nil || i != 168*time.Hour {
			t.Errorf("AutoCleaning = %s, %v; want 168h", i, err)
		}
		if _, err := NewI2C(bus, Addr, &Opts{AutoCleaning: 1500 * time.Millisecond}); err == nil {
			t.Error("an interval of 1.5 s was accepted")
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestStartRefused: a chip that refuses the start (measuring for an earlier
// process) is stopped, 200 ms, and started again.
func TestStartRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := append(starting("SEN55"),
			i2cfake.Write(0, 0x01, 0x04),
			i2cfake.Write(200*time.Millisecond, 0x00, 0x21))
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

// TestStatusAndReset: the device status register (datasheet 5.4, 6.1.17)
// with the fan cleaning bit set; the reset's 100 ms.
func TestStatusAndReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := append(starting("SEN55"),
			i2cfake.Write(50*time.Millisecond, 0xD2, 0x06), i2cfake.Read(20*time.Millisecond, frame(0x0008, 0x0000)...),
			i2cfake.Write(0, 0xD3, 0x04),
			i2cfake.Write(100*time.Millisecond, 0x01, 0x04))
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := d.Status()
		if err != nil || s != StatusCleaning {
			t.Errorf("status 0x%08X, %v; want the cleaning bit", s, err)
		}
		if err := d.Reset(); err != nil {
			t.Fatal(err)
		}
		if err := d.Halt(); err != nil { // the next command, after the reset's 100 ms
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestFaults(t *testing.T) {
	bad := frame(measured...)
	bad[5] ^= 1 // the CRC of PM2.5
	for _, tt := range []struct {
		name   string
		steps  []i2cfake.Step
		faults map[int]error
		want   error
	}{
		{"nack", []i2cfake.Step{nameCmd}, map[int]error{0: i2cfake.NACK}, i2cfake.NACK},
		{"all ones", []i2cfake.Step{nameCmd, i2cfake.Read(20*time.Millisecond, allOnes(48)...)}, nil, sensirion.ErrAllOnes},
		{"an SPS30's answer", []i2cfake.Step{nameCmd, i2cfake.Read(20*time.Millisecond, text("00080000")...)}, nil, &WrongChipError{}},
		{"bad crc on name", []i2cfake.Step{nameCmd, i2cfake.Read(20*time.Millisecond, append(text("SEN55")[:47], 0)...)}, nil, &sensirion.CRCError{}},
		{"nack on start and stop", append(starting("SEN55"), i2cfake.Write(0, 0x01, 0x04)), map[int]error{4: i2cfake.NACK, 5: i2cfake.NACK}, i2cfake.NACK},
		{"bad crc on values", append(starting("SEN55"), dataReady, ready, readCmd, i2cfake.Read(20*time.Millisecond, bad...)), nil, &sensirion.CRCError{Word: 1}},
		{"nack on data-ready", append(starting("SEN55"), dataReady), map[int]error{5: i2cfake.NACK}, i2cfake.NACK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				bus := i2cfake.Sensirion(Addr, tt.steps...)
				bus.Faults = tt.faults
				d, err := NewI2C(bus, Addr, nil)
				if err == nil {
					err = d.Sense(&Air{})
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

func allOnes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 0xFF
	}
	return b
}

func TestWrongChipMessage(t *testing.T) {
	err := error(&WrongChipError{Name: "00080000"})
	if want := `sen5x: product name "00080000" is not a SEN50, SEN54 or SEN55`; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
}
