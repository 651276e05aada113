package hw

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/onewire"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/internal/i2cfake"
)

// DS2482 status register values: LL (the 1-wire line is high), PPD (a
// presence pulse at the latest 1-wire reset), SD (a short), 1WB (busy).
const (
	stIdle     = 0x0A // LL, PPD
	stBusy     = 0x0B // LL, PPD, 1WB
	stNoDevice = 0x08 // LL: no presence pulse
	stShort    = 0x06 // SD, PPD, the line low
)

// DS18B20 scratchpads: 23.125 °C at 12 bits (the one of TestReadOnceDS18B20,
// which the kernel checked), the power-on 85 °C, nine zero bytes (whose CRC
// is 0), and the first with its CRC wrong.
var (
	spRoom    = []byte{0x72, 0x01, 0x4b, 0x46, 0x7f, 0xff, 0x0e, 0x10, 0x57}
	spPowerOn = []byte{0x50, 0x05, 0x4b, 0x46, 0x7f, 0xff, 0x0c, 0x10, 0x1c}
	spZeros   = make([]byte, 9)
	spBadCRC  = []byte{0x72, 0x01, 0x4b, 0x46, 0x7f, 0xff, 0x0e, 0x10, 0x58}
)

const (
	balconyID = "28-0316a2791fff"
	cellarID  = "28-0417c1b2e3ff"
)

// rom is a 1-wire ROM: family, serial and their CRC.
func rom(family byte, serial uint64) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], serial<<8|uint64(family))
	b[7] = onewire.CalcCRC(b[:7])
	return binary.LittleEndian.Uint64(b[:])
}

// dsTraffic is the I²C traffic of a DS2482 at addr as periph's ds248x
// driver makes it, built one 1-wire step at a time, with the transactions
// the chip NACKs.
type dsTraffic struct {
	addr   uint16
	ops    []i2ctest.IO
	faults map[int]error
}

func newDS(addr uint16) *dsTraffic { return &dsTraffic{addr: addr, faults: map[int]error{}} }

func (d *dsTraffic) io(ios ...i2ctest.IO) *dsTraffic {
	for _, io := range ios {
		io.Addr = d.addr
		d.ops = append(d.ops, io)
	}
	return d
}

func (d *dsTraffic) nack(io i2ctest.IO) *dsTraffic {
	d.faults[len(d.ops)] = i2cfake.NACK
	return d.io(io)
}

// open is climated's reset and status check, then periph's New: reset,
// status, configuration (active pull-up) read back, and the read pointers
// that tell a DS2483 (port configuration) and a DS2482-800 (channel
// selection, then channel 0) from a DS2482-100.
func (d *dsTraffic) open(x800 bool) *dsTraffic {
	d.io(w(0xF0), r(0x18))
	d.io(w(0xF0), wr([]byte{0xE1, 0xF0}, 0x18), wr([]byte{0xD2, 0xE1}, 0x01))
	d.nack(w(0xE1, 0xB4))
	if x800 {
		return d.io(w(0xE1, 0xD2), w(0xC3, 0xF0))
	}
	return d.nack(w(0xE1, 0xD2))
}

// channel selects a DS2482-800 channel and reads the selection back.
func (d *dsTraffic) channel(ch int) *dsTraffic {
	written := []byte{0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87}
	read := []byte{0xB8, 0xB1, 0xAA, 0xA3, 0x9C, 0x95, 0x8E, 0x87}
	return d.io(w(0xC3, written[ch]), wr([]byte{0xE1, 0xD2}, read[ch]))
}

// reset is a 1-wire reset and the status it leaves.
func (d *dsTraffic) reset(status byte) *dsTraffic { return d.io(w(0xB4), r(status)) }

// write is 1-wire Write Byte of each byte, the strong pull-up set before
// the last if power.
func (d *dsTraffic) write(power bool, bs ...byte) *dsTraffic {
	for i, b := range bs {
		if power && i == len(bs)-1 {
			d.io(w(0xD2, 0xA5))
		}
		d.io(w(0xA5, b), r(stIdle))
	}
	return d
}

// read is 1-wire Read Byte of each byte: the command (periph reads the
// status with it), the status until idle, the read data register.
func (d *dsTraffic) read(bs ...byte) *dsTraffic {
	for _, b := range bs {
		d.io(wr([]byte{0x96}, stBusy), r(stIdle), wr([]byte{0xE1, 0xE1}, b))
	}
	return d
}

// matchROM is Match ROM of rom followed by the function command cmd.
func matchROM(rom uint64, cmd byte) []byte {
	return append(binary.LittleEndian.AppendUint64([]byte{0x55}, rom), cmd)
}

// tx is a reset, Match ROM of rom, cmd, and the bytes the chip answers.
func (d *dsTraffic) tx(rom uint64, cmd byte, power bool, answer ...byte) *dsTraffic {
	return d.reset(stIdle).write(power, matchROM(rom, cmd)...).read(answer...)
}

// reading is one DS18B20 reading: Convert T with the strong pull-up, then
// Read Scratchpad.
func (d *dsTraffic) reading(rom uint64, sp []byte) *dsTraffic {
	return d.tx(rom, 0x44, true).tx(rom, 0xBE, false, sp...)
}

// opened is what opening a DS18B20 reads: its scratchpad and its power
// supply (0xFF: external, 0x00: parasite).
func (d *dsTraffic) opened(rom uint64, power byte) *dsTraffic {
	return d.tx(rom, 0xBE, false, spRoom...).tx(rom, 0xB4, false, power)
}

// search is the traffic of periph's onewire.Search over the devices roms,
// the DS2482 answering each triplet as they would.
func (d *dsTraffic) search(roms ...uint64) *dsTraffic {
	last, lastDevice := -1, uint64(0)
	for {
		d.reset(stIdle).write(false, 0xF0)
		active := slices.Clone(roms)
		discrepancy, device := -1, uint64(0)
		for bit := range 64 {
			var dir uint64
			switch {
			case bit < last:
				dir = lastDevice >> bit & 1
			case bit == last:
				dir = 1
			}
			zeros := slices.ContainsFunc(active, func(r uint64) bool { return r>>bit&1 == 0 })
			ones := slices.ContainsFunc(active, func(r uint64) bool { return r>>bit&1 == 1 })
			taken, status := dir, byte(stIdle)
			switch {
			case zeros && ones && dir == 0:
				discrepancy = bit
			case zeros && !ones:
				taken = 0
			case ones && !zeros:
				taken = 1
			}
			if !zeros {
				status |= 0x20
			}
			if !ones {
				status |= 0x40
			}
			if taken == 1 {
				status |= 0x80
			}
			d.io(w(0x78, byte(dir<<7)), r(status))
			device |= taken << bit
			active = slices.DeleteFunc(active, func(r uint64) bool { return r>>bit&1 != taken })
		}
		last, lastDevice = discrepancy, device
		if discrepancy == -1 {
			return d
		}
	}
}

func (d *dsTraffic) bus() *i2cfake.Bus {
	b := i2cfake.New(d.ops...)
	b.Faults = d.faults
	return b
}

var balconyROM = rom(0x28, 0x0316a2791fff)

func TestROMOf(t *testing.T) {
	a, err := romOf(balconyID)
	if err != nil || uint64(a) != balconyROM || uint64(a)>>56 != 0x7d || idOf(a) != balconyID {
		t.Errorf("romOf(%s) = %016x, %v; want %016x (crc 0x7d)", balconyID, uint64(a), err, balconyROM)
	}
	for _, id := range []string{"10-000802e1b4c2", "28-xyz", "28-0316a2791fff0"} {
		if _, err := romOf(id); err == nil {
			t.Errorf("romOf(%s) accepted", id)
		}
	}
}

func TestReadOnceDS18B20Bridge(t *testing.T) {
	tests := []struct {
		name    string
		cfg     SensorConfig
		traffic *dsTraffic
		source  string
	}{
		{"DS2482-100 at 0x18", SensorConfig{Bridge: 0x18},
			newDS(0x18).open(false).opened(balconyROM, 0xFF).reading(balconyROM, spRoom),
			"i2c1/0x18/" + balconyID},
		{"DS2482-800 at 0x1c, channel 3", SensorConfig{Bridge: 0x1c, Channel: 3},
			newDS(0x1c).open(true).channel(3).opened(balconyROM, 0xFF).reading(balconyROM, spRoom),
			"i2c1/0x1c/ch3/" + balconyID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tt.cfg.Zone, tt.cfg.Chip, tt.cfg.Device = "Balcony", "ds18b20", balconyID
				m, open := mux(map[uint16]*i2cfake.Bus{tt.cfg.Bridge: tt.traffic.bus()})
				s := newSource(t, Config{Sensors: []SensorConfig{tt.cfg}}, open, nil)
				start := time.Now()
				rs, err := s.ReadOnce(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if len(rs) != 1 || rs[0].Value != 23.125 || rs[0].Source != tt.source || rs[0].Measurement != sensors.Temperature {
					t.Errorf("readings = %+v, want 23.125 °C from %s", rs, tt.source)
				}
				// The 12-bit conversion time and the bridge's own waits.
				if took := time.Since(start); took < 752*time.Millisecond || took > 800*time.Millisecond {
					t.Errorf("reading took %s, want the 752 ms conversion and a few ms", took)
				}
				if err := m.Close(); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func TestDS18B20BridgeFaults(t *testing.T) {
	open := func() *dsTraffic { return newDS(0x18).open(false) }
	opened := func() *dsTraffic { return open().opened(balconyROM, 0xFF) }
	tests := []struct {
		name    string
		traffic *dsTraffic // nil: no chip at 0x18
		channel int
		op      string
		want    error
		message string
	}{
		{name: "no DS2482", op: "start", want: ErrNoAck, message: "ds18b20 28-0316a2791fff via the DS2482 at 0x18 on i2c bus 1: start: no answer from the chip (NACK)"},
		{name: "not a DS2482", traffic: newDS(0x18).io(w(0xF0), r(0x42)), op: "start", want: &WrongChipError{}, message: "register status after reset holds 0x42, want 0x18"},
		{name: "1-wire line held low", traffic: newDS(0x18).io(w(0xF0), r(0x10)), op: "start", want: ErrShort, message: "held low"},
		{name: "no presence pulse", traffic: open().reset(stNoDevice), op: "start", want: ErrNoAck, message: "no presence pulse on the 1-wire bus"},
		{name: "short detected", traffic: open().reset(stShort), op: "start", want: ErrShort, message: "1-wire bus shorted"},
		{name: "DS18B20 missing", traffic: open().tx(balconyROM, 0xBE, false, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF), op: "start", want: ErrAllOnes, message: "no chip answered its ROM"},
		{name: "channel of a DS2482-100", traffic: open(), channel: 2, op: "start", message: "channel 2: the DS2482-100 at 0x18 has one 1-wire channel"},
		{name: "channel not selected", traffic: newDS(0x18).open(true).io(w(0xC3, 0xC3), wr([]byte{0xE1, 0xD2}, 0xB8)), channel: 3, op: "start", message: "select channel 3: the DS2482-800 reports channel 0"},
		{name: "crc mismatch", traffic: opened().reading(balconyROM, spBadCRC), op: "read", want: ErrCRC, message: "crc 0x58, want 0x57"},
		{name: "power-on value", traffic: opened().reading(balconyROM, spPowerOn), op: "read", message: "85 °C is the chip's power-on value"},
		{name: "nine zeros", traffic: opened().reading(balconyROM, spZeros), op: "read", message: "configuration 0x00 is not a DS18B20's"},
		{name: "bridge nacks during convert", traffic: opened().reset(stIdle).nack(w(0xA5, 0x55)), op: "read", want: ErrNoAck, message: "convert T"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				chips := map[uint16]*i2cfake.Bus{}
				if tt.traffic != nil {
					chips[0x18] = tt.traffic.bus()
				}
				m, open := mux(chips)
				cfg := SensorConfig{Zone: "Balcony", Chip: "ds18b20", Bridge: 0x18, Channel: tt.channel, Device: balconyID}
				s := newSource(t, Config{Sensors: []SensorConfig{cfg}}, open, nil)
				if e := readOnceFault(t, s, "ds18b20", tt.op, tt.want, tt.message); e.Addr != 0x18 || e.Device != balconyID {
					t.Errorf("error %q: address 0x%02x device %q", e, e.Addr, e.Device)
				}
				if err := m.Close(); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

// TestRunDS18B20BridgeReopens: a NACK from the bridge in the middle of a
// reading leaves periph's driver failing for good; the retry a second
// later opens the bridge anew and reads.
func TestRunDS18B20BridgeReopens(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The scratchpad read after the conversion writes Match ROM and
		// Read Scratchpad; the bridge NACKs its first Read Byte.
		traffic := newDS(0x18).open(false).opened(balconyROM, 0xFF).tx(balconyROM, 0x44, true).
			reset(stIdle).write(false, matchROM(balconyROM, 0xBE)...).nack(wr([]byte{0x96}, stBusy)).
			open(false).reading(balconyROM, spRoom)
		m, open := mux(map[uint16]*i2cfake.Bus{0x18: traffic.bus()})
		var logs testutil.Buffer
		cfg := SensorConfig{Zone: "Balcony", Chip: "ds18b20", Bridge: 0x18, Device: balconyID}
		s := newSource(t, Config{Sensors: []SensorConfig{cfg}}, open, logTo(&logs))
		rs, statuses, _ := runFor(t, s, 10*time.Second)
		if len(rs) != 1 || rs[0].Value != 23.125 {
			t.Errorf("readings %+v, want one of 23.125 °C", rs)
		}
		if len(statuses) != 2 || !errors.Is(statuses[0].Err, ErrNoAck) || statuses[1].Err != nil {
			t.Errorf("statuses %+v, want a NACK then a reading", statuses)
		}
		if !strings.Contains(logs.String(), "device="+balconyID) {
			t.Errorf("log does not name the device:\n%s", logs.String())
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestDS18B20ParasiteHoldsBridge: the bridge is free during the conversion
// of an externally powered DS18B20, and held during that of a parasite-
// powered one, whose strong pull-up the next 1-wire command would end.
func TestDS18B20ParasiteHoldsBridge(t *testing.T) {
	for _, parasite := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			power := byte(0xFF)
			if parasite {
				power = 0x00
			}
			b := newDS(0x18).open(false).opened(balconyROM, power).reading(balconyROM, spRoom).bus()
			br := &bridge{addr: 0x18}
			dev, err := openDS18B20(br, b, 0, onewire.Address(balconyROM))
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error)
			go func() {
				_, err := dev.sense()
				done <- err
			}()
			time.Sleep(100 * time.Millisecond) // into the conversion
			held := !br.mu.TryLock()
			if !held {
				br.mu.Unlock()
			}
			if held != parasite {
				t.Errorf("parasite %t: bridge held during the conversion: %t", parasite, held)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRunDS18B20DoesNotDelayOthers: the 752 ms conversion holds neither
// the I²C bus nor the SHT3x beside the bridge, which reads on time.
func TestRunDS18B20DoesNotDelayOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		traffic := newDS(0x18).open(false).opened(balconyROM, 0xFF)
		for range 3 {
			traffic.reading(balconyROM, spRoom)
		}
		m, open := mux(map[uint16]*i2cfake.Bus{0x18: traffic.bus(), 0x44: sensirionChip(0x44, sht3xReads(3)...)})
		cfg := Config{Sensors: []SensorConfig{
			{Zone: "Balcony", Chip: "ds18b20", Bridge: 0x18, Device: balconyID, Interval: time.Second},
			{Zone: "Indoor", Chip: "sht3x", Interval: time.Second},
		}}
		s := newSource(t, cfg, open, nil)
		rs, _, start := runFor(t, s, 2900*time.Millisecond)
		everySecond(t, of(rs, "i2c1/0x44 sht3x", sensors.Temperature), 3, start)
		if n := len(of(rs, "i2c1/0x18/"+balconyID, sensors.Temperature)); n != 3 {
			t.Errorf("%d DS18B20 readings, want 3", n)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
