package hw

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/climated/climated/sensors/internal/i2cfake"
)

func TestScan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nack := map[int]error{0: i2cfake.NACK}
		// At 0x44 the HDC302x probe comes first: an SHT3x NACKs it.
		sht := chip(0x44, concat([]i2ctest.IO{wr([]byte{0x37, 0x81}, 0, 0, 0)}, sht3xOps[:2])...)
		sht.Faults = nack
		// At 0x45 an SHT4x NACKs the HDC302x and SHT3x probes.
		sht4 := chip(0x45, wr([]byte{0x37, 0x81}, 0, 0, 0), w(0xF3, 0x2D), w(0x89), r(0x1A, 0x2B, 0x6D, 0x3C, 0x4D, 0xF6))
		sht4.Faults = map[int]error{0: i2cfake.NACK, 1: i2cfake.NACK}
		// A measuring SCD41 NACKs get_serial_number, answers data-ready.
		scd := sensirionChip(0x62, w(0x36, 0x82), w(0xE4, 0xB8), r(0x80, 0x06, 0x04))
		scd.Faults = nack
		am := []byte{0x03, 0x04, 0x01, 0xF4, 0x00, 0xFA}
		amCRC := crc16Modbus(am)
		am = append(am, byte(amCRC), byte(amCRC>>8))
		am2320 := chip(0x5c, w(0x00), w(0x03, 0x00, 0x04), r(am...))
		am2320.Faults = nack // asleep: it NACKs the wake-up call
		chips := map[uint16]*i2cfake.Bus{
			0x5a: chip(0x5a, wr([]byte{0x20}, 0x81)),
			0x5c: am2320,
			0x18: chip(0x18, wr([]byte{0x06}, 0x00, 0x54), wr([]byte{0x07}, 0x04, 0x00)),
			0x38: chip(0x38, wr([]byte{0x71}, 0x18)),
			0x44: sht,
			0x45: sht4,
			0x48: chip(0x48, wr([]byte{0x01}, 0x60, 0xA0)),
			0x58: sensirionChip(0x58, w(0x20, 0x2F), r(0x00, 0x20, 0x07)),
			0x61: sensirionChip(0x61, w(0xD1, 0x00), r(0x03, 0x42, 0xF3)),
			0x62: scd,
			0x76: chip(0x76, wr([]byte{0xD0}, 0x60)),
			0x77: chip(0x77, wr([]byte{0xD0}, 0x61)), // a BME680
		}
		m := &i2cfake.Mux{Chips: chips}
		found, err := Scan(context.Background(), m, "/dev/i2c-1")
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"0x18 MCP9808", "0x38 AHT20", "0x44 SHT3x/SHT85", "0x45 SHT4x", "0x48 TMP102",
			"0x58 SGP30", "0x5a CCS811", "0x5c AM2320", "0x61 SCD30", "0x62 SCD4x", "0x76 BME280", "0x77 BME680",
		}
		if len(found) != len(want) {
			t.Fatalf("found %v, want %v", found, want)
		}
		for i, f := range found {
			if !strings.HasPrefix(f.String(), want[i]) || f.Bus != "1" {
				t.Errorf("found[%d] = %s on bus %s, want %s on 1", i, f, f.Bus, want[i])
			}
		}
		lines := strings.Join(ConfigLines(found, "Indoor"), "\n")
		for _, s := range []string{
			"  - {zone: Indoor, chip: bme280, bus: 1, address: 0x76}   # chip id 0x60",
			"  - {zone: Indoor, chip: scd4x, bus: 1, address: 0x62}   # measuring",
			"  - {zone: Indoor, chip: sgp30, bus: 1, address: 0x58}   # feature set 0x0020, crc ok; CO2 is estimated",
			"  # 0x77 BME680 (chip id 0x61; climated has no BME680 driver): not supported",
		} {
			if !strings.Contains(lines, s) {
				t.Errorf("config lines lack %q:\n%s", s, lines)
			}
		}
		cfg := ScanConfig(found, "Indoor")
		if len(cfg.Sensors) != 11 {
			t.Errorf("ScanConfig has %d sensors, want 11", len(cfg.Sensors))
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("ScanConfig is not valid: %v", err)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestScanIdentity: scan says a chip is supported exactly when start can
// drive it (openBMxx80): every value of Bosch's chip-ID register, through
// both.
func TestScanIdentity(t *testing.T) {
	for _, tt := range []struct {
		id        byte
		found     string // Found.String() at 0x76
		supported bool
	}{
		{0x55, "0x76 BMP180 (chip id 0x55): not supported", false}, // a BMP180 has only 0x77
		{0x56, "0x76 BMP280 engineering sample (chip id 0x56; periph's bmxx80 driver does not drive the BMP280's engineering samples (IDs 0x56, 0x57)): not supported", false},
		{0x57, "0x76 BMP280 engineering sample (chip id 0x57; periph's bmxx80 driver does not drive the BMP280's engineering samples (IDs 0x56, 0x57)): not supported", false},
		{0x58, "0x76 BMP280 (chip id 0x58)", true},
		{0x60, "0x76 BME280 (chip id 0x60)", true},
		{0x61, "0x76 BME680 (chip id 0x61; climated has no BME680 driver): not supported", false},
	} {
		t.Run(fmt.Sprintf("0x%02X", tt.id), func(t *testing.T) {
			m := &i2cfake.Mux{Chips: map[uint16]*i2cfake.Bus{0x76: chip(0x76, wr([]byte{0xD0}, tt.id))}}
			found, err := Scan(context.Background(), m, "1")
			if err != nil {
				t.Fatal(err)
			}
			if len(found) != 1 || found[0].String() != tt.found {
				t.Fatalf("found %v, want %q", found, tt.found)
			}
			if err := m.Close(); err != nil {
				t.Fatal(err)
			}
			if (found[0].Chip != "") != tt.supported {
				t.Errorf("chip %q: supported %t, want %t", found[0].Chip, found[0].Chip != "", tt.supported)
			}
			if !tt.supported {
				return
			}
			// What scan configures, start opens: periph's driver then reads
			// its calibration, which this playback lacks, so open fails, but
			// not at climated's ID check.
			_, err = lookupChip(found[0].Chip).open(chip(0x76, wr([]byte{0xD0}, tt.id)), 0x76, startOpts{})
			var wrong *WrongChipError
			var unsupported *UnsupportedError
			if errors.As(err, &wrong) || errors.As(err, &unsupported) {
				t.Errorf("start refuses what scan supports: %v", err)
			}
		})
	}
}

func TestCRC16Modbus(t *testing.T) {
	// The check value of CRC-16/MODBUS, the AM2320's checksum.
	if got := crc16Modbus([]byte("123456789")); got != 0x4B37 {
		t.Errorf("crc16Modbus(123456789) = 0x%04X, want 0x4B37", got)
	}
}

// TestScanDS2482 finds a DS2482-100 with two DS18B20s and a DS18S20 on
// its 1-wire bus, and a DS2482-800 with a DS18B20 on channel 3 and nothing
// on its other channels; both NACK the MCP9808's probe first.
func TestScanDS2482(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cellar, attic, s20 := rom(0x28, 0x0417c1b2e3ff), rom(0x28, 0x051a2b3c4dff), rom(0x10, 0x000802e1b4c2)
		x100 := newDS(0x19).nack(wr([]byte{0x06}, 0, 0)).open(false).search(balconyROM, cellar, s20)
		x800 := newDS(0x1c).nack(wr([]byte{0x06}, 0, 0)).open(true).reset(stNoDevice)
		for ch := 1; ch < 8; ch++ {
			x800.channel(ch)
			if ch == 3 {
				x800.search(attic)
			} else {
				x800.reset(stNoDevice)
			}
		}
		m := &i2cfake.Mux{Chips: map[uint16]*i2cfake.Bus{0x19: x100.bus(), 0x1c: x800.bus()}}
		found, err := Scan(context.Background(), m, "1")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range found {
			got = append(got, f.String())
		}
		want := []string{
			"0x19 DS2482-100 (I²C to 1-wire bridge: 3 device(s) on its 1-wire bus)",
			"0x19 DS18B20 " + balconyID + " (via the DS2482-100, rom crc ok)",
			"0x19 DS18B20 " + cellarID + " (via the DS2482-100, rom crc ok)",
			"0x19 DS18S20 10-000802e1b4c2 (via the DS2482-100, rom crc ok): not supported",
			"0x1c DS2482-800 (I²C to 1-wire bridge: 1 device(s) on its 1-wire bus)",
			"0x1c DS18B20 28-051a2b3c4dff (via the DS2482-800 channel 3, rom crc ok)",
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("found lacks %q:\n%s", w, strings.Join(got, "\n"))
			}
		}
		if len(got) != len(want) {
			t.Errorf("found %d, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
		}
		lines := strings.Join(ConfigLines(found, "Cellar"), "\n")
		for _, s := range []string{
			"  # 0x19 DS2482-100 (I²C to 1-wire bridge: 3 device(s) on its 1-wire bus)",
			"  - {zone: Cellar, chip: ds18b20, bus: 1, bridge: 0x19, device: " + balconyID + "}   # DS18B20 via the DS2482-100, rom crc ok",
			"  - {zone: Cellar, chip: ds18b20, bus: 1, bridge: 0x1c, channel: 3, device: 28-051a2b3c4dff}   # DS18B20 via the DS2482-800 channel 3, rom crc ok",
			"  # 0x19 DS18S20 10-000802e1b4c2 (via the DS2482-100, rom crc ok): not supported",
		} {
			if !strings.Contains(lines, s) {
				t.Errorf("config lines lack %q:\n%s", s, lines)
			}
		}
		cfg := ScanConfig(found, "Cellar")
		if len(cfg.Sensors) != 3 {
			t.Errorf("ScanConfig has %d sensors, want 3", len(cfg.Sensors))
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("ScanConfig is not valid: %v", err)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
