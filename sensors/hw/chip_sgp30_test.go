package hw

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/internal/sinktest"
	"github.com/climated/climated/sensors/sgp30"
)

// SGP30 traffic: its start (feature set 0x0020, serial number,
// init_air_quality, 21 ms in all, so that its measurements fall 21 ms
// past each second), a measurement in the initialisation phase (the fixed
// 400 ppm and 0 ppb) and one after it (450 ppm, 10 ppb).
var (
	sgp30Start = []i2ctest.IO{
		w(0x20, 0x2F), r(0x00, 0x20, 0x07),
		w(0x36, 0x82), r(0x00, 0x00, 0x81, 0x01, 0x48, 0xF1, 0xA3, 0xF2, 0xB3),
		w(0x20, 0x03),
	}
	sgp30Fixed    = []i2ctest.IO{w(0x20, 0x08), r(0x01, 0x90, 0x4C, 0x00, 0x00, 0x81)}
	sgp30Measured = []i2ctest.IO{w(0x20, 0x08), r(0x01, 0xC2, 0x50, 0x00, 0x0A, 0x5A)}
)

// sgp30Ops is the traffic of an SGP30 measuring every second from its
// start: the 14 measurements of the initialisation phase, then parts.
func sgp30Ops(parts ...[]i2ctest.IO) []i2ctest.IO {
	ops := slices.Clone(sgp30Start)
	for range 14 {
		ops = append(ops, sgp30Fixed...)
	}
	for _, p := range parts {
		ops = append(ops, p...)
	}
	return ops
}

// repeat is n times ops.
func repeat(n int, ops []i2ctest.IO) []i2ctest.IO {
	var out []i2ctest.IO
	for range n {
		out = append(out, ops...)
	}
	return out
}

// TestReadOnceSGP30: the chip measures every second from its start; the
// fixed 400 ppm of its first 15 s are not a reading; climated read gives
// the first measurement after them, 15.5 s after the start, as estimated.
func TestReadOnceSGP30(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, open := mux(map[uint16]*i2cfake.Bus{0x58: sensirionChip(0x58, sgp30Ops(sgp30Measured)...)})
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Bedroom", Chip: "sgp30"}}}, open, nil)
		start := time.Now()
		rs, err := s.ReadOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := "i2c1/0x58 sgp30 (estimated CO2)"
		if len(rs) != 1 || rs[0].Measurement != sensors.CO2 || rs[0].Value != 450 || rs[0].Source != want {
			t.Errorf("readings %+v, want 450 ppm CO2 from %s", rs, want)
		}
		if at := rs[0].Time.Sub(start); at != 15*time.Second+521*time.Millisecond {
			t.Errorf("read after %s, want 15.521 s", at)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRunSGP30 runs an SGP30 beside an SHT3x, both read every minute: the
// SGP30 measures every second in between, the SHT3x reads on time, and
// the SGP30 is given the absolute humidity of the SHT3x's air when it
// changes (25 °C, 50 %: 11.48 g/m³, 0x0B7C; at 60 %: 13.78 g/m³, 0x0DC8).
func TestRunSGP30(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sht := concat(sht3xOps, []i2ctest.IO{w(0x24, 0x00), r(0x66, 0x66, 0x93, 0x99, 0x99, 0xBE)})
		// Measurements at 1.021 s, 2.021 s …: the first after the SHT3x's
		// reading at 0.016 s is told its humidity; the one at 60.021 s,
		// after its reading at 60.016 s, the new one.
		sgp := sgp30Start
		sgp = append(sgp, w(0x20, 0x61, 0x0B, 0x7C, 0x1E))
		sgp = append(sgp, repeat(14, sgp30Fixed)...)
		sgp = append(sgp, repeat(45, sgp30Measured)...)
		sgp = append(sgp, w(0x20, 0x61, 0x0D, 0xC8, 0x3F))
		sgp = append(sgp, repeat(6, sgp30Measured)...)
		m, open := mux(map[uint16]*i2cfake.Bus{0x44: sensirionChip(0x44, sht...), 0x58: sensirionChip(0x58, sgp...)})
		cfg := Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "sht31"}, {Zone: "Indoor", Chip: "sgp30"}}}
		s := newSource(t, cfg, open, nil)
		rs, statuses, start := runFor(t, s, 65*time.Second+500*time.Millisecond)
		co2 := of(rs, "i2c1/0x58 sgp30 (estimated CO2)", sensors.CO2)
		if len(co2) != 2 || co2[0].Value != 450 || co2[1].Value != 450 {
			t.Errorf("CO2 readings %+v, want two of 450 ppm", co2)
		}
		if at := co2[1].Time.Sub(start); at != time.Minute {
			t.Errorf("second CO2 reading at %s, want at 1m0s", at)
		}
		hum := of(rs, "i2c1/0x44 sht3x", sensors.Humidity)
		if len(hum) != 2 || hum[1].Value != 60 || hum[1].Time.Sub(start) != time.Minute+16*time.Millisecond {
			t.Errorf("SHT3x humidity %+v, want 50 then 60 %% on time", hum)
		}
		for _, st := range statuses {
			if st.Err != nil {
				t.Errorf("status %+v", st)
			}
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSGP30Faults(t *testing.T) {
	badCRC := []i2ctest.IO{w(0x20, 0x08), r(0x01, 0xC2, 0x51, 0x00, 0x0A, 0x5A)}
	zero := []i2ctest.IO{w(0x20, 0x08), r(0x00, 0x00, 0x81, 0x00, 0x0A, 0x5A)}
	tests := []struct {
		name    string
		ops     []i2ctest.IO
		faults  map[int]error
		op      string
		want    error
		message string
	}{
		{"nack", sgp30Start[:1], map[int]error{0: i2cfake.NACK}, "start", ErrNoAck, "sgp30 on i2c bus 1 at 0x58: start"},
		{"an SGPC3", []i2ctest.IO{w(0x20, 0x2F), r(0x10, 0x20, 0x69)}, nil, "start", &WrongChipError{}, "register 0x202F (product type) holds 0x01, want 0x00"},
		{"crc mismatch", sgp30Ops(badCRC), nil, "read", ErrCRC, "bad crc on word 0"},
		{"eCO2 below 400", sgp30Ops(zero), nil, "read", &RangeError{}, "CO2 0 is outside 400…60000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b := sensirionChip(0x58, tt.ops...)
				b.Faults = tt.faults
				m, open := mux(map[uint16]*i2cfake.Bus{0x58: b})
				s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Bedroom", Chip: "sgp30"}}}, open, nil)
				readOnceFault(t, s, "sgp30", tt.op, tt.want, tt.message)
				if err := m.Close(); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

// TestSGP30Sense: what the poller gets from the measuring goroutine.
func TestSGP30Sense(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		tests := []struct {
			name string
			dev  *sgp30Dev
			want error
		}{
			{"warming up", &sgp30Dev{}, errNotReady},
			{"latest fault", &sgp30Dev{latest: sgp30.Air{CO2: 450}, at: now, err: ErrCRC}, ErrCRC},
			{"stalled", &sgp30Dev{latest: sgp30.Air{CO2: 450}, at: now.Add(-5 * time.Second)}, ErrTimeout},
			{"above its range", &sgp30Dev{latest: sgp30.Air{CO2: 60001}, at: now}, &RangeError{}},
			{"current", &sgp30Dev{latest: sgp30.Air{CO2: 450}, at: now.Add(-time.Second)}, nil},
		}
		for _, tt := range tests {
			vs, err := tt.dev.sense()
			if !i2cfake.Is(err, tt.want) || (tt.want == nil && (len(vs) != 1 || vs[0].v != 450)) {
				t.Errorf("%s: %v, %v; want %v", tt.name, vs, err, tt.want)
			}
		}
	})
}

// closeCounter is a device with a goroutine of its own, counting closes.
type closeCounter struct{ closed *atomic.Int32 }

func (c closeCounter) sense() ([]value, error) { return []value{{sensors.CO2, 500}}, nil }
func (c closeCounter) close()                  { c.closed.Add(1) }

// TestRunClosesDevices: a device opened by a call that timed out is closed
// when that call returns, and the device in use is closed when Run ends.
func TestRunClosesDevices(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var closed, opens atomic.Int32
		release := make(chan struct{})
		s := newSource(t, Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "sgp30"}}}, nil, nil)
		p := s.specs[0]
		p.offBus = true
		p.openDev = func(context.Context, *guard) (device, error) {
			if opens.Add(1) == 1 {
				<-release // the first open hangs past the attempt timeout
			}
			return closeCounter{&closed}, nil
		}
		sk := &sinktest.Sink{}
		stop := sinktest.Start(s, sk)
		time.Sleep(DefaultAttemptTimeout + time.Second)
		close(release)
		time.Sleep(time.Second)
		if n := closed.Load(); n != 1 {
			t.Errorf("%d devices closed after the late open returned, want 1", n)
		}
		time.Sleep(time.Minute)
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if n := closed.Load(); n != 2 || opens.Load() != 2 {
			t.Errorf("%d opens, %d closes at the end, want 2 and 2", opens.Load(), n)
		}
		if rs, _ := sk.Snapshot(); len(rs) == 0 {
			t.Error("no readings from the second open")
		}
	})
}
