package hw

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/i2cfake"
	"github.com/climated/climated/sensors/internal/sinktest"
)

// of is the readings of one source and measurement.
func of(rs []sensors.Reading, source string, m sensors.Measurement) []sensors.Reading {
	var out []sensors.Reading
	for _, r := range rs {
		if r.Source == source && r.Measurement == m {
			out = append(out, r)
		}
	}
	return out
}

// mux is bus "1" with a playback per address; other buses do not exist.
func mux(chips map[uint16]*i2cfake.Bus) (*i2cfake.Mux, Opener) {
	m := &i2cfake.Mux{Chips: chips}
	return m, func(name string) (i2c.BusCloser, error) {
		if name != "1" {
			return nil, fmt.Errorf("/dev/i2c-%s: %w", name, ErrNoBus)
		}
		return m, nil
	}
}

// chip is one address's playback.
func chip(addr uint16, ops ...i2ctest.IO) *i2cfake.Bus {
	for i := range ops {
		ops[i].Addr = addr
	}
	return i2cfake.New(ops...)
}

// w and r are a write and a read transaction (Addr filled in by chip).
func w(b ...byte) i2ctest.IO              { return i2ctest.IO{W: b} }
func r(b ...byte) i2ctest.IO              { return i2ctest.IO{R: b} }
func wr(wb []byte, rb ...byte) i2ctest.IO { return i2ctest.IO{W: wb, R: rb} }

// concat joins transaction lists.
func concat(parts ...[]i2ctest.IO) []i2ctest.IO {
	var out []i2ctest.IO
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// logTo is a logger into b.
func logTo(b *testutil.Buffer) *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

// newSource builds a Source of cfg (Wi-Fi off unless configured) on open.
func newSource(t *testing.T, cfg Config, open Opener, log *slog.Logger) *Source {
	t.Helper()
	if cfg.WiFi.Interface == "" {
		cfg.WiFi.Disabled = true
	}
	s, err := New(cfg, &Options{Open: open, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sensorError is the *Error in err's chain, or fails the test.
func sensorError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not a *hw.Error", err)
	}
	return e
}

// readOnceFault reads s once and checks that it gives no reading but an
// *Error of chip in op, of the kind want (nil: any), saying message.
func readOnceFault(t *testing.T, s *Source, chip, op string, want error, message string) *Error {
	t.Helper()
	rs, err := s.ReadOnce(context.Background())
	if len(rs) != 0 {
		t.Errorf("readings %+v from a faulty chip", rs)
	}
	e := sensorError(t, err)
	if e.Op != op || e.Chip != chip {
		t.Errorf("error %q: op %q chip %q, want %q %q", err, e.Op, e.Chip, op, chip)
	}
	if want != nil && !i2cfake.Is(err, want) {
		t.Errorf("error %q is not %T %v", err, want, want)
	}
	if !strings.Contains(err.Error(), message) {
		t.Errorf("error %q does not say %q", err, message)
	}
	return e
}

// runFor runs s into a new sink for d and returns what the sink kept and
// when the run started.
func runFor(t *testing.T, s *Source, d time.Duration) ([]sensors.Reading, []sensors.Status, time.Time) {
	t.Helper()
	sk := &sinktest.Sink{}
	start := time.Now()
	stop := sinktest.Start(s, sk)
	time.Sleep(d)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	rs, statuses := sk.Snapshot()
	return rs, statuses, start
}

// everySecond checks that rs are n readings, one a second from start, none
// more than 20 ms late.
func everySecond(t *testing.T, rs []sensors.Reading, n int, start time.Time) {
	t.Helper()
	if len(rs) != n {
		t.Errorf("%d readings, want %d", len(rs), n)
	}
	for i, r := range rs {
		if late := r.Time.Sub(start.Add(time.Duration(i) * time.Second)); late < 0 || late > 20*time.Millisecond {
			t.Errorf("reading %d of %s is %s late", i, r.Source, late)
		}
	}
}

// execTime is the execution time of each Sensirion command climated sends,
// by address and command, from the datasheets' command tables: the least
// time before the transaction that follows it; commands with arguments
// are left out, as a test of the chip's own package checks them (SHT3x table 4 and the 1 ms
// of table 9's note, the SHT4x command table, SCD30 3 ms as drivers wait (see
// sensors/scd30), SCD4x table 9, SGP30 table 10).
var execTime = map[uint16]map[string]time.Duration{
	0x44: {"\xF3\x2D": time.Millisecond, "\x24\x00": 15500 * time.Microsecond, "\x89": time.Millisecond, "\xFD": 8300 * time.Microsecond},
	0x45: {"\xF3\x2D": time.Millisecond, "\x89": time.Millisecond},
	0x58: {"\x20\x2F": 10 * time.Millisecond, "\x36\x82": 500 * time.Microsecond, "\x20\x03": 10 * time.Millisecond, "\x20\x08": 12 * time.Millisecond, "\x20\x61": 10 * time.Millisecond},
	0x61: {"\xD1\x00": 3 * time.Millisecond, "\x46\x00": 3 * time.Millisecond, "\x51\x02": 3 * time.Millisecond, "\x02\x02": 3 * time.Millisecond, "\x03\x00": 3 * time.Millisecond},
	0x62: {"\x36\xF6": 20 * time.Millisecond, "\x3F\x86": 500 * time.Millisecond, "\xE4\xB8": time.Millisecond, "\xEC\x05": time.Millisecond, "\x36\x82": time.Millisecond},
}

// sensirionChip is a Sensirion chip's playback at addr: each transaction a
// write or a read, each no sooner than the execution time of the command
// written before it (see i2cfake.Sensirion).
func sensirionChip(addr uint16, ops ...i2ctest.IO) *i2cfake.Bus {
	steps := make([]i2cfake.Step, len(ops))
	var wait time.Duration
	for i, op := range ops {
		steps[i] = i2cfake.Step{W: op.W, R: op.R, Wait: wait}
		wait = 0
		if len(op.W) > 0 {
			wait = execTime[addr][string(op.W)]
		}
	}
	return i2cfake.Sensirion(addr, steps...)
}

// sensirionChips are the chips whose playback is a Sensirion bus.
var sensirionChips = map[string]bool{"sht3x": true, "sht4x": true, "scd30": true, "scd4x": true, "sgp30": true}

// chipFor is the playback of the chip named name at addr.
func chipFor(name string, addr uint16, ops ...i2ctest.IO) *i2cfake.Bus {
	if sensirionChips[name] {
		for i := range ops {
			ops[i].Addr = addr
		}
		return sensirionChip(addr, ops...)
	}
	return chip(addr, ops...)
}
