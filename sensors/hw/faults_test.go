package hw

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/climated/climated/sensors/internal/i2cfake"
)

func TestReadOnceFaults(t *testing.T) {
	allFF := concat(bmp280Example[:6], []i2ctest.IO{wr([]byte{0xF7}, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)})
	badCRC := concat(sht3xOps[:3], []i2ctest.IO{r(0x66, 0x66, 0x93, 0x80, 0x00, 0xA3)})
	tooHot := concat(sht3xOps[:3], []i2ctest.IO{r(0xFF, 0xFE, 0x9D, 0x80, 0x00, 0xA2)})
	scd4xBadCRC := concat(scd4xOps[:2], scd4xOps[4:7], []i2ctest.IO{r(0x02, 0x2C, 0xA3, 0x67, 0x0D, 0x37, 0x4D, 0x08, 0xF1)})
	tests := []struct {
		name    string
		cfg     SensorConfig
		ops     []i2ctest.IO
		faults  map[int]error
		open    Opener // nil: the mux
		op      string
		want    error
		message string
	}{
		{name: "no bus", cfg: SensorConfig{Chip: "bme280", Bus: "2"}, op: "open bus", want: ErrNoBus, message: "bme280 on i2c bus 2 at 0x76: open bus"},
		{name: "permission denied", cfg: SensorConfig{Chip: "bme280"}, op: "open bus", want: ErrPermission,
			open: func(string) (i2c.BusCloser, error) {
				return nil, fmt.Errorf("/dev/i2c-1: %w: add the user to group i2c", ErrPermission)
			}},
		{name: "nack", cfg: SensorConfig{Chip: "bme280"}, ops: bmp280Example[:1], faults: map[int]error{0: i2cfake.NACK}, op: "start", want: ErrNoAck, message: "bme280 on i2c bus 1 at 0x76: start: no answer from the chip (NACK): is it connected, powered and at this address? (sysfs-i2c: remote I/O error)"},
		{name: "all 0xFF chip id", cfg: SensorConfig{Chip: "bme280"}, ops: []i2ctest.IO{wr([]byte{0xD0}, 0xFF)}, op: "start", want: ErrAllOnes},
		{name: "all 0xFF data", cfg: SensorConfig{Chip: "bmp280"}, ops: allFF, op: "read", want: ErrAllOnes},
		{name: "wrong chip id", cfg: SensorConfig{Chip: "bme280"}, ops: bmp280Example[:1], op: "start", want: &WrongChipError{}, message: "holds 0x58, want 0x60 (that is a bmp280)"},
		// A BMP280 engineering sample is a BMP280 that periph's bmxx80
		// refuses: unsupported, said at start, never handed to the driver.
		{name: "bmp280 engineering sample 0x56", cfg: SensorConfig{Chip: "bmp280"}, ops: []i2ctest.IO{wr([]byte{0xD0}, 0x56)}, op: "start", want: &UnsupportedError{},
			message: "bmp280 on i2c bus 1 at 0x76: start: not supported: register 0xD0 holds 0x56, a BMP280 engineering sample: periph's bmxx80 driver does not drive the BMP280's engineering samples (IDs 0x56, 0x57); supported: 0x58"},
		{name: "bmp280 engineering sample 0x57", cfg: SensorConfig{Chip: "bmp280"}, ops: []i2ctest.IO{wr([]byte{0xD0}, 0x57)}, op: "start", want: &UnsupportedError{}, message: "not supported"},
		{name: "bme680 as a bme280", cfg: SensorConfig{Chip: "bme280"}, ops: []i2ctest.IO{wr([]byte{0xD0}, 0x61)}, op: "start", want: &WrongChipError{}, message: "holds 0x61, want 0x60"},
		{name: "bad crc", cfg: SensorConfig{Chip: "sht3x"}, ops: badCRC, op: "read", want: ErrCRC, message: "sht3x on i2c bus 1 at 0x44: read: checksum mismatch"},
		{name: "bad crc in scd4x", cfg: SensorConfig{Chip: "scd40"}, ops: scd4xBadCRC, op: "read", want: ErrCRC},
		{name: "out of range", cfg: SensorConfig{Chip: "sht3x"}, ops: tooHot, op: "read", want: &RangeError{}, message: "Temperature 130 is outside -40…85"},
		{name: "nack swallowed by periph's mcp9808", cfg: SensorConfig{Chip: "mcp9808"},
			ops:    []i2ctest.IO{wr([]byte{0x06}, 0x00, 0x54), wr([]byte{0x07}, 0x04, 0x00), w(0x08, 0x03), w(0x01, 0x00, 0x00), wr([]byte{0x05}, 0, 0)},
			faults: map[int]error{4: i2cfake.NACK}, op: "read", want: ErrNoAck, message: "failed to read ambient temperature (bus: sysfs-i2c: remote I/O error)"},
		{name: "wrong mcp9808 vendor", cfg: SensorConfig{Chip: "mcp9808"}, ops: []i2ctest.IO{wr([]byte{0x06}, 0x00, 0x55)}, op: "start", want: &WrongChipError{}},
		{name: "wrong hdc302x vendor", cfg: SensorConfig{Chip: "hdc302x"}, ops: []i2ctest.IO{wr([]byte{0x37, 0x81}, 0x12, 0x34, 0x37)}, op: "start", want: &WrongChipError{}},
		{name: "wrong ccs811 id", cfg: SensorConfig{Chip: "ccs811"}, ops: []i2ctest.IO{wr([]byte{0x20}, 0x55)}, op: "start", want: &WrongChipError{}},
		{name: "ccs811 error bit", cfg: SensorConfig{Chip: "ccs811"}, ops: []i2ctest.IO{
			wr([]byte{0x20}, 0x81), w(0xF4), w(0x01, 0x10),
			wr([]byte{0x02}, 0x01, 0xF4, 0x00, 0x20, 0x99, 0x10, 0x00, 0x00),
		}, op: "read", message: "HEATER_FAULT"},
		{name: "ccs811 in boot mode", cfg: SensorConfig{Chip: "ccs811"}, ops: []i2ctest.IO{
			wr([]byte{0x20}, 0x81), w(0xF4), w(0x01, 0x10),
			wr([]byte{0x02}, 0x01, 0xF4, 0x00, 0x20, 0x10, 0x00, 0x00, 0x00),
		}, op: "read", message: "boot mode"},
		{name: "ccs811 out of range", cfg: SensorConfig{Chip: "ccs811"}, ops: []i2ctest.IO{
			wr([]byte{0x20}, 0x81), w(0xF4), w(0x01, 0x10),
			wr([]byte{0x02}, 0x00, 0x10, 0x00, 0x20, 0x98, 0x00, 0x00, 0x00),
		}, op: "read", want: &RangeError{}, message: "CO2 16 is outside 400…8192"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tt.cfg.Zone = "Indoor"
				c := lookupChip(tt.cfg.Chip)
				b := chipFor(c.name, c.addrs[0], tt.ops...)
				b.Faults = tt.faults
				m, open := mux(map[uint16]*i2cfake.Bus{c.addrs[0]: b})
				if tt.open != nil {
					open = tt.open
				}
				s := newSource(t, Config{Sensors: []SensorConfig{tt.cfg}}, open, nil)
				readOnceFault(t, s, c.name, tt.op, tt.want, tt.message)
				if err := m.Close(); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

// TestReadOnceOthersUnaffected: a chip that NACKs gives its error; the
// chip beside it on the same bus gives its readings.
func TestReadOnceOthersUnaffected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, open := mux(map[uint16]*i2cfake.Bus{0x44: sensirionChip(0x44, sht3xOps...)}) // nothing at 0x76: NACK
		cfg := Config{Sensors: []SensorConfig{{Zone: "Indoor", Chip: "bme280"}, {Zone: "Indoor", Chip: "sht3x"}}}
		s := newSource(t, cfg, open, nil)
		rs, err := s.ReadOnce(context.Background())
		if !errors.Is(err, ErrNoAck) || sensorError(t, err).Chip != "bme280" {
			t.Errorf("err = %v, want the bme280's NACK", err)
		}
		if len(rs) != 2 || rs[0].Source != "i2c1/0x44 sht3x" {
			t.Errorf("readings = %+v, want the sht3x's temperature and humidity", rs)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDS18B20Faults(t *testing.T) {
	tests := []struct {
		name, data string
		want       error
		message    string
	}{
		{"crc", "72 01 4b 46 7f ff 0e 10 57 : crc=58 NO\n72 01 4b 46 7f ff 0e 10 57 t=23125\n", ErrCRC, "check of the scratchpad failed"},
		{"power-on value", "50 05 4b 46 7f ff 0c 10 1c : crc=1c YES\n50 05 4b 46 7f ff 0c 10 1c t=85000\n", nil, "power-on value"},
		{"all ones", "ff ff ff ff ff ff ff ff ff : crc=c9 NO\nff ff ff ff ff ff ff ff ff t=-62\n", ErrAllOnes, "0xFF"},
		{"missing", "", ErrNoAck, "not on the 1-wire bus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			const id = "28-0316a2791fff"
			if tt.data != "" {
				os.Mkdir(filepath.Join(dir, id), 0o755)
				if err := os.WriteFile(filepath.Join(dir, id, "w1_slave"), []byte(tt.data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg := Config{Sensors: []SensorConfig{{Zone: "Balcony", Chip: "ds18b20", Device: id}}, WiFi: WiFiConfig{Disabled: true}}
			s, err := New(cfg, &Options{W1Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.ReadOnce(context.Background())
			if e := sensorError(t, err); e.Bus != "w1" || !strings.Contains(err.Error(), "ds18b20 28-0316a2791fff on 1-wire bus w1: read") {
				t.Errorf("err = %v, want one naming the ds18b20 on bus w1", err)
			}
			if (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.message) {
				t.Errorf("err = %v, want %v saying %q", err, tt.want, tt.message)
			}
		})
	}
}

func TestOpenBusMissing(t *testing.T) {
	if _, err := os.Stat("/dev/i2c-77"); err == nil {
		t.Skip("/dev/i2c-77 exists")
	}
	_, err := OpenBus("77")
	if !errors.Is(err, ErrNoBus) || !strings.Contains(err.Error(), "raspi-config") {
		t.Errorf("OpenBus(77) = %v, want ErrNoBus with what to do", err)
	}
	if _, err := OpenBus("x"); err == nil {
		t.Error("OpenBus(x) accepted a bus that is not a number")
	}
}
