package scd30

import (
	"math"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/sensirion"
)

// start is the traffic of NewI2C with DefaultOpts on a module that already
// measures every 2 s at altitude 0: firmware 3.66, interval read back,
// altitude read back, start without pressure compensation.
var start = []i2ctest.IO{
	{Addr: Addr, W: []byte{0xD1, 0x00}},
	{Addr: Addr, R: []byte{0x03, 0x42, 0xF3}},
	{Addr: Addr, W: []byte{0x46, 0x00}},
	{Addr: Addr, R: []byte{0x00, 0x02, 0xE3}},
	{Addr: Addr, W: []byte{0x51, 0x02}},
	{Addr: Addr, R: []byte{0x00, 0x00, 0x81}},
	{Addr: Addr, W: []byte{0x00, 0x10, 0x00, 0x00, 0x81}},
}

var (
	ready    = []i2ctest.IO{{Addr: Addr, W: []byte{0x02, 0x02}}, {Addr: Addr, R: []byte{0x00, 0x01, 0xB0}}}
	notReady = []i2ctest.IO{{Addr: Addr, W: []byte{0x02, 0x02}}, {Addr: Addr, R: []byte{0x00, 0x00, 0x81}}}
	// The interface description's example (section 1.5): CO₂ 0x43DB8C2E,
	// temperature 0x41D9E7FF, humidity 0x42433A1B.
	measurement = []i2ctest.IO{
		{Addr: Addr, W: []byte{0x03, 0x00}},
		{Addr: Addr, R: []byte{
			0x43, 0xDB, 0xCB, 0x8C, 0x2E, 0x8F,
			0x41, 0xD9, 0x70, 0xE7, 0xFF, 0xF5,
			0x42, 0x43, 0xBF, 0x3A, 0x1B, 0x74,
		}},
	}
)

func concat(parts ...[]i2ctest.IO) []i2ctest.IO {
	var ops []i2ctest.IO
	for _, p := range parts {
		ops = append(ops, p...)
	}
	return ops
}

// The interface description (version 1.0, section 1.1): "SCD30 does not
// support repeated start condition", so a command is a write of its own and
// its answer a separate read. The interface description gives no execution
// time for reads; the module stretches the clock instead. 3 ms between the
// two (readDelay) is what drivers use (for example rdmueller/scd30, "3ms
// warten" after get_data_ready), and what this bus requires. Commands and their codes: section 1.4; the
// CRC-8 (polynomial 0x31, init 0xFF) follows every word, section 1.1.3.
func cmd(b ...byte) i2cfake.Step { return i2cfake.Write(0, b...) }
func ans(b ...byte) i2cfake.Step { return i2cfake.Read(3*time.Millisecond, b...) }

// startSteps is start as a Sensirion bus replays it.
var startSteps = []i2cfake.Step{
	cmd(0xD1, 0x00), ans(0x03, 0x42, 0xF3), // firmware 3.66
	cmd(0x46, 0x00), ans(0x00, 0x02, 0xE3), // interval 2 s
	cmd(0x51, 0x02), ans(0x00, 0x00, 0x81), // altitude 0 m
	cmd(0x00, 0x10, 0x00, 0x00, 0x81), // start without pressure compensation
}

func TestSenseDatasheetExample(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := append(startSteps[:len(startSteps):len(startSteps)],
			cmd(0x02, 0x02), ans(0x00, 0x00, 0x81), // not ready
			cmd(0x02, 0x02), ans(0x00, 0x01, 0xB0), // ready
			// The interface description's example (section 1.5): CO₂
			// 0x43DB8C2E, temperature 0x41D9E7FF, humidity 0x42433A1B.
			cmd(0x03, 0x00), ans(
				0x43, 0xDB, 0xCB, 0x8C, 0x2E, 0x8F,
				0x41, 0xD9, 0x70, 0xE7, 0xFF, 0xF5,
				0x42, 0x43, 0xBF, 0x3A, 0x1B, 0x74),
			cmd(0x01, 0x04), // stop
		)
		bus := i2cfake.Sensirion(Addr, steps...)
		d, err := NewI2C(bus, Addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.Firmware() != 0x0342 {
			t.Errorf("firmware = 0x%04X, want 0x0342", d.Firmware())
		}
		var e Env
		if err := d.Sense(&e); err != ErrNotReady {
			t.Fatalf("first Sense: %v, want ErrNotReady", err)
		}
		if err := d.Sense(&e); err != nil {
			t.Fatal(err)
		}
		// 439.09 ppm, 27.24 °C, 48.81 %RH (the datasheet rounds to 439, 27.2, 48.8).
		if math.Abs(e.CO2-439.095) > 0.001 {
			t.Errorf("CO2 = %v, want 439.095", e.CO2)
		}
		if c := e.Temperature.Celsius(); math.Abs(c-27.2383) > 0.0001 {
			t.Errorf("temperature = %v °C, want 27.2383", c)
		}
		if rh := float64(e.Humidity) / float64(physic.PercentRH); math.Abs(rh-48.8067) > 0.0001 {
			t.Errorf("humidity = %v %%, want 48.8067", rh)
		}
		if err := d.Halt(); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestNewI2CWritesOnlyChanges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The module measured every 5 s at 0 m; we ask for 2 s at 120 m, then
		// for a pressure of 1013 hPa, which replaces the altitude.
		bus := i2cfake.Sensirion(Addr,
			startSteps[0], startSteps[1], startSteps[2],
			ans(0x00, 0x05, 0x74),
			cmd(0x46, 0x00, 0x00, 0x02, 0xE3),
			startSteps[4], startSteps[5],
			cmd(0x51, 0x02, 0x00, 0x78, 0xC0),
			startSteps[6],
			startSteps[0], startSteps[1], startSteps[2], startSteps[3],
			cmd(0x00, 0x10, 0x03, 0xF5, 0xDB),
		)
		if _, err := NewI2C(bus, Addr, &Opts{Interval: 2 * time.Second, Altitude: 120}); err != nil {
			t.Fatal(err)
		}
		if _, err := NewI2C(bus, Addr, &Opts{AmbientPressure: 1013 * 100 * physic.Pascal}); err != nil {
			t.Fatal(err)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestBadOpts(t *testing.T) {
	for _, o := range []Opts{
		{Interval: time.Second},
		{Interval: 2500 * time.Millisecond},
		{AmbientPressure: 500 * 100 * physic.Pascal},
		{Altitude: -5},
	} {
		if _, err := NewI2C(i2cfake.New(), Addr, &o); err == nil {
			t.Errorf("NewI2C accepted %+v", o)
		}
	}
}

func TestFaults(t *testing.T) {
	corrupt := concat(measurement)
	corrupt[1].R = append([]byte(nil), corrupt[1].R...)
	corrupt[1].R[17] ^= 1
	nan := []i2ctest.IO{measurement[0], {Addr: Addr, R: sensirion.Encode(nil, 0x7FC0, 0, 0x41D9, 0xE7FF, 0x4243, 0x3A1B)}}
	i2cfake.CheckFaults(t, []i2cfake.Fault{
		{Name: "nack", Ops: start[:1], Faults: map[int]error{0: i2cfake.NACK}, Want: i2cfake.NACK},
		{Name: "all ones", Ops: []i2ctest.IO{start[0], {Addr: Addr, R: []byte{0xFF, 0xFF, 0xFF}}}, Want: sensirion.ErrAllOnes},
		{Name: "bad crc on firmware", Ops: []i2ctest.IO{start[0], {Addr: Addr, R: []byte{0x03, 0x42, 0xF4}}}, Want: &sensirion.CRCError{}},
		{Name: "bad crc on humidity", Ops: concat(start, ready, corrupt), Want: &sensirion.CRCError{}},
		{Name: "nack on data ready", Ops: concat(start, ready[:1]), Faults: map[int]error{7: i2cfake.NACK}, Want: i2cfake.NACK},
		{Name: "not a number", Ops: concat(start, ready, nan)},
	}, func(b *i2cfake.Bus) error {
		d, err := NewI2C(b, Addr, nil)
		if err != nil {
			return err
		}
		return d.Sense(&Env{})
	})
}
