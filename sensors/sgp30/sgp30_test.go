package sgp30

import (
	"errors"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/sensirion"
)

func w(b ...byte) i2ctest.IO { return i2ctest.IO{Addr: Addr, W: b} }
func r(b ...byte) i2ctest.IO { return i2ctest.IO{Addr: Addr, R: b} }

var (
	// NewI2C: feature set 0x0020 (an SGP30, version 0x20), serial
	// 0x00000148A3F2, init_air_quality.
	start = []i2ctest.IO{
		w(0x20, 0x2F), r(0x00, 0x20, 0x07),
		w(0x36, 0x82), r(0x00, 0x00, 0x81, 0x01, 0x48, 0xF1, 0xA3, 0xF2, 0xB3),
		w(0x20, 0x03),
	}
	// measure_air_quality in the initialisation phase: 400 ppm, 0 ppb.
	fixed = []i2ctest.IO{w(0x20, 0x08), r(0x01, 0x90, 0x4C, 0x00, 0x00, 0x81)}
	// After it: 450 ppm CO2eq, 10 ppb TVOC.
	measured = []i2ctest.IO{w(0x20, 0x08), r(0x01, 0xC2, 0x50, 0x00, 0x0A, 0x5A)}
)

func concat(parts ...[]i2ctest.IO) []i2ctest.IO {
	var ops []i2ctest.IO
	for _, p := range parts {
		ops = append(ops, p...)
	}
	return ops
}

// The datasheet's command table (SGP30 datasheet, table 10) with each
// command's maximum execution time: get_feature_set_version 0x202F 10 ms,
// get_serial_id 0x3682 0.5 ms, init_air_quality 0x2003 10 ms,
// measure_air_quality 0x2008 12 ms, get_baseline 0x2015 10 ms,
// set_baseline 0x201E 10 ms, set_absolute_humidity 0x2061 10 ms. Section 6:
// the master sends a command, waits for the maximum execution time, then
// reads in a transaction of its own, and sends no command while the
// previous one executes. Every word is followed by its CRC-8 (polynomial
// 0x31, init 0xFF, section 6.6).
var (
	startSteps = []i2cfake.Step{
		i2cfake.Write(0, 0x20, 0x2F), i2cfake.Read(10*time.Millisecond, 0x00, 0x20, 0x07),
		i2cfake.Write(0, 0x36, 0x82), i2cfake.Read(500*time.Microsecond, 0x00, 0x00, 0x81, 0x01, 0x48, 0xF1, 0xA3, 0xF2, 0xB3),
		i2cfake.Write(0, 0x20, 0x03),
	}
	initWait = 10 * time.Millisecond // before the command after init_air_quality
)

// measureSteps is measure_air_quality answered with b, wait after the
// previous transaction.
func measureSteps(wait time.Duration, b ...byte) []i2cfake.Step {
	return []i2cfake.Step{i2cfake.Write(wait, 0x20, 0x08), i2cfake.Read(12*time.Millisecond, b...)}
}

// TestSenseWarmUp measures every second from init: the 15 readings of the
// initialisation phase are ErrWarmingUp, not 400 ppm; the next is the air.
func TestSenseWarmUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := append([]i2cfake.Step(nil), startSteps...)
		for range 15 {
			steps = append(steps, measureSteps(initWait, 0x01, 0x90, 0x4C, 0x00, 0x00, 0x81)...) // 400 ppm, 0 ppb
		}
		steps = append(steps, measureSteps(initWait, 0x01, 0xC2, 0x50, 0x00, 0x0A, 0x5A)...) // 450 ppm, 10 ppb
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.Serial() != 0x0148A3F2 || d.FeatureSet() != 0x0020 || d.String() != "SGP30{playback(88)}" {
			t.Errorf("%s: serial 0x%012X, feature set 0x%04X", d, d.Serial(), d.FeatureSet())
		}
		var a Air
		for i := range 15 {
			time.Sleep(time.Second - waitMeasure)
			if err := d.Sense(&a); !errors.Is(err, ErrWarmingUp) {
				t.Fatalf("Sense %d s after init: %v, want ErrWarmingUp", i+1, err)
			}
		}
		time.Sleep(time.Second - waitMeasure)
		if err := d.Sense(&a); err != nil {
			t.Fatal(err)
		}
		if a != (Air{CO2: 450, TVOC: 10}) {
			t.Errorf("air = %+v, want 450 ppm, 10 ppb", a)
		}
		if err := d.Halt(); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestBaseline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// get_baseline answers CO2eq 0x8E68 then TVOC 0x8F41; set_baseline
		// takes them the other way round, TVOC first.
		steps := append([]i2cfake.Step(nil), startSteps...)
		steps = append(steps,
			i2cfake.Write(initWait, 0x20, 0x15), i2cfake.Read(10*time.Millisecond, 0x8E, 0x68, 0xCD, 0x8F, 0x41, 0x37))
		steps = append(steps, startSteps...)
		steps = append(steps, i2cfake.Write(initWait, 0x20, 0x1E, 0x8F, 0x41, 0x37, 0x8E, 0x68, 0xCD))
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := d.Baseline()
		if err != nil {
			t.Fatal(err)
		}
		if b != (Baseline{CO2: 0x8E68, TVOC: 0x8F41}) {
			t.Errorf("baseline = %+v", b)
		}
		if _, err := NewI2C(bus, Addr, &Opts{Baseline: b}); err != nil {
			t.Fatal(err)
		}
		if err := d.SetBaseline(Baseline{}); err == nil {
			t.Error("SetBaseline accepted the zero baseline")
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSetHumidity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const wait = 10 * time.Millisecond // set_absolute_humidity's execution time
		steps := append([]i2cfake.Step(nil), startSteps...)
		steps = append(steps,
			i2cfake.Write(initWait, 0x20, 0x61, 0x0F, 0x80, 0x62), // 15.5 g/m³ in 8.8 fixed point
			i2cfake.Write(wait, 0x20, 0x61, 0x00, 0x01, 0xB0),     // the driest the format says, not 0 (off)
			i2cfake.Write(wait, 0x20, 0x61, 0x00, 0x00, 0x81),     // off
		)
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, ah := range []float64{15.5, 0.001, 0} {
			if err := d.SetHumidity(ah); err != nil {
				t.Fatal(err)
			}
		}
		for _, ah := range []float64{-1, 256, math.NaN()} {
			if err := d.SetHumidity(ah); err == nil {
				t.Errorf("SetHumidity(%g) accepted", ah)
			}
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestAbsoluteHumidity(t *testing.T) {
	tests := []struct {
		t, rh, want float64 // °C, %, g/m³
	}{
		{25, 50, 11.53}, // half the 23.05 g/m³ of saturated air at 25 °C (steam tables)
		{0, 100, 4.85},  // saturated air at 0 °C
		{30, 80, 24.3},  // 80 % of 30.4 g/m³
		{20, 0, 0},
	}
	for _, tt := range tests {
		tc := physic.ZeroCelsius + physic.Temperature(tt.t*float64(physic.Celsius))
		rh := physic.RelativeHumidity(tt.rh * float64(physic.PercentRH))
		if got := AbsoluteHumidity(tc, rh); math.Abs(got-tt.want) > 0.1 {
			t.Errorf("AbsoluteHumidity(%g °C, %g %%) = %.3f g/m³, want %.2f", tt.t, tt.rh, got, tt.want)
		}
	}
}

// TestFaults: a fault of measure_air_quality is reported even in the
// initialisation phase, so these need no waiting beyond the chip's
// execution times.
func TestFaults(t *testing.T) {
	badMeasure := concat(start, []i2ctest.IO{w(0x20, 0x08), r(0x01, 0xC2, 0x50, 0x00, 0x0A, 0x5B)})
	i2cfake.CheckFaults(t, []i2cfake.Fault{
		{Name: "nack", Ops: start[:1], Faults: map[int]error{0: i2cfake.NACK}, Want: i2cfake.NACK},
		{Name: "all ones", Ops: []i2ctest.IO{start[0], r(0xFF, 0xFF, 0xFF)}, Want: sensirion.ErrAllOnes},
		{Name: "bad crc on feature set", Ops: []i2ctest.IO{start[0], r(0x00, 0x20, 0x08)}, Want: &sensirion.CRCError{}},
		{Name: "an SGPC3", Ops: []i2ctest.IO{start[0], r(0x10, 0x20, 0x69)}, Want: &WrongChipError{}},
		{Name: "bad crc on serial", Ops: concat(start[:3], []i2ctest.IO{r(0x00, 0x00, 0x81, 0x01, 0x48, 0xF0, 0xA3, 0xF2, 0xB3)}), Want: &sensirion.CRCError{}},
		{Name: "nack on init", Ops: start, Faults: map[int]error{4: i2cfake.NACK}, Want: i2cfake.NACK},
		{Name: "bad crc on tvoc", Ops: badMeasure, Want: &sensirion.CRCError{Word: 1, Got: 0x5B, Want: 0x5A}},
		{Name: "nack on measure", Ops: concat(start, measured[:1]), Faults: map[int]error{5: i2cfake.NACK}, Want: i2cfake.NACK},
	}, func(b *i2cfake.Bus) error {
		d, err := NewI2C(b, Addr, nil)
		if err != nil {
			return err
		}
		return d.Sense(&Air{})
	})
}

func TestWrongChipMessage(t *testing.T) {
	err := error(&WrongChipError{FeatureSet: 0x1020})
	if want := "sgp30: feature set 0x1020: product type 1 is not an SGP30 (0)"; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
}
