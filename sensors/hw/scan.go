package hw

import (
	"context"
	"fmt"
	"slices"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/climated/climated/sensors/sensirion"
)

// Found is a chip that Scan identified: a chip on the I²C bus, or a 1-wire
// device behind a DS2482 bridge (Device set, Addr the bridge's).
type Found struct {
	Bus     string // the bus as configured, e.g. "1"
	Addr    uint16
	Chip    string // the chip name to configure; "" for a chip climated does not read
	Name    string // what the chip is, e.g. "BME280", "SGP30", "DS2482-100"
	Detail  string // how it was identified
	Bridge  bool   // a DS2482: not a sensor itself; the devices behind it follow it
	Device  string // a 1-wire device's ID, e.g. 28-0316a2791fff
	Channel int    // a 1-wire device's channel of a DS2482-800
}

func (f Found) String() string {
	name := f.Name
	if f.Device != "" {
		name += " " + f.Device
	}
	s := fmt.Sprintf("0x%02x %s (%s)", f.Addr, name, f.Detail)
	if f.Chip == "" && !f.Bridge {
		s += ": not supported"
	}
	return s
}

// Sensor is the configuration of the found chip in zone.
func (f Found) Sensor(zone string) SensorConfig {
	if f.Device != "" {
		return SensorConfig{Zone: zone, Chip: f.Chip, Bus: f.Bus, Bridge: f.Addr, Channel: f.Channel, Device: f.Device}
	}
	return SensorConfig{Zone: zone, Chip: f.Chip, Bus: f.Bus, Address: f.Addr}
}

// probe identifies a chip at one address, or says it is not there.
type probe struct {
	addrs []uint16
	try   func(d *i2c.Dev) (Found, bool)
}

// Probes are tried in order at each address; they only read, or send
// commands that do not change a chip's settings. Chip-ID registers are
// used where the chip has one; the TMP102 and AHT20, which have none, are
// recognised by the fixed bits of a register, and Sensirion's chips by a
// word whose CRC matches. A DS2482, tried after them, is the exception
// (scanDS2482).
var probes = []probe{
	{ds2482Addrs, func(d *i2c.Dev) (Found, bool) {
		return Found{Chip: "mcp9808", Name: "MCP9808", Detail: "manufacturer 0x0054, device 0x04"}, checkMCP9808(d.Bus, d.Addr) == nil
	}},
	{[]uint16{0x38}, func(d *i2c.Dev) (Found, bool) {
		r := make([]byte, 1)
		ok := d.Tx([]byte{0x71}, r) == nil && r[0] != 0xFF && r[0]&0x08 != 0
		return Found{Chip: "aht20", Name: "AHT20", Detail: fmt.Sprintf("status 0x%02X, calibrated", r[0])}, ok
	}},
	{[]uint16{0x44, 0x45, 0x46, 0x47}, func(d *i2c.Dev) (Found, bool) {
		r := make([]byte, 3)
		if d.Tx([]byte{0x37, 0x81}, r) != nil {
			return Found{}, false
		}
		w, err := sensirion.Words(r)
		return Found{Chip: "hdc302x", Name: "HDC302x", Detail: "manufacturer 0x3000"}, err == nil && w[0] == hdc302xVendor
	}},
	{[]uint16{0x44, 0x45}, func(d *i2c.Dev) (Found, bool) {
		w, err := sensirion.Read(d, []byte{0xF3, 0x2D}, time.Millisecond, 1)
		if err != nil {
			return Found{}, false
		}
		return Found{Chip: "sht3x", Name: "SHT3x/SHT85", Detail: fmt.Sprintf("status 0x%04X, crc ok", w[0])}, true
	}},
	{[]uint16{0x44, 0x45, 0x46}, func(d *i2c.Dev) (Found, bool) {
		w, err := sensirion.Read(d, []byte{0x89}, time.Millisecond, 2)
		if err != nil {
			return Found{}, false
		}
		return Found{Chip: "sht4x", Name: "SHT4x", Detail: fmt.Sprintf("serial 0x%04X%04X, crc ok", w[0], w[1])}, true
	}},
	{[]uint16{0x48, 0x49, 0x4a, 0x4b}, func(d *i2c.Dev) (Found, bool) {
		cfg, err := readReg16(d.Bus, d.Addr, 0x01)
		return Found{Chip: "tmp102", Name: "TMP102", Detail: fmt.Sprintf("configuration 0x%04X; the chip has no ID register", cfg)}, err == nil && cfg&0x600F == 0x6000
	}},
	{[]uint16{0x58}, func(d *i2c.Dev) (Found, bool) {
		w, err := sensirion.Read(d, []byte{0x20, 0x2F}, 10*time.Millisecond, 1)
		if err != nil || w[0]>>12 != 0 {
			return Found{}, false
		}
		return Found{Chip: "sgp30", Name: "SGP30", Detail: fmt.Sprintf("feature set 0x%04X, crc ok; CO2 is estimated", w[0])}, true
	}},
	{[]uint16{0x5a, 0x5b}, func(d *i2c.Dev) (Found, bool) {
		id, err := readReg8(d.Bus, d.Addr, 0x20)
		return Found{Chip: "ccs811", Name: "CCS811", Detail: "hardware ID 0x81; CO2 is estimated"}, err == nil && id == ccs811HWID
	}},
	{[]uint16{0x5c}, func(d *i2c.Dev) (Found, bool) {
		return Found{Chip: "am2320", Name: "AM2320", Detail: "answered a read of registers 0–3, crc ok"}, probeAM2320(d)
	}},
	{[]uint16{0x61}, func(d *i2c.Dev) (Found, bool) {
		w, err := sensirion.Read(d, sensirion.Encode8(0xD100), 3*time.Millisecond, 1)
		if err != nil {
			return Found{}, false
		}
		return Found{Chip: "scd30", Name: "SCD30", Detail: fmt.Sprintf("firmware %d.%d, crc ok", w[0]>>8, w[0]&0xFF)}, true
	}},
	{[]uint16{0x62}, func(d *i2c.Dev) (Found, bool) {
		f := Found{Chip: "scd4x", Name: "SCD4x"}
		if w, err := sensirion.Read(d, sensirion.Encode8(0x3682), time.Millisecond, 3); err == nil {
			f.Detail = fmt.Sprintf("serial 0x%04X%04X%04X, crc ok", w[0], w[1], w[2])
			return f, true
		}
		// A measuring SCD4x answers only a few commands, data-ready among them.
		_, err := sensirion.Read(d, sensirion.Encode8(0xE4B8), time.Millisecond, 1)
		f.Detail = "measuring; data-ready status, crc ok"
		return f, err == nil
	}},
	{[]uint16{0x69}, probeSEN5x},
	{[]uint16{0x69}, probeSPS30},
	{[]uint16{0x76, 0x77}, func(d *i2c.Dev) (Found, bool) {
		id, err := readReg8(d.Bus, d.Addr, 0xD0)
		c, ok := bmxx80IDs[id]
		if err != nil || !ok {
			return Found{}, false
		}
		f := Found{Chip: c.chip, Name: c.name, Detail: fmt.Sprintf("chip id 0x%02X", id)}
		// The same rule as at start (openBMxx80): only what the driver drives.
		if !c.driven || lookupChip(c.chip) == nil || !slices.Contains(lookupChip(c.chip).addrs, d.Addr) {
			f.Chip = ""
		}
		if c.problem != "" {
			f.Detail += "; " + c.problem
		}
		return f, true
	}},
}

// Scan probes the addresses of the chips climated knows on bus (named
// busName in the results) and identifies what answers. It does not probe
// other addresses: reading an unknown chip can change its state. It
// returns ctx.Err() if ctx ends first.
func Scan(ctx context.Context, bus i2c.Bus, busName string) ([]Found, error) {
	busName = normBus(busName)
	addrs := slices.Clone(ds2482Addrs)
	for _, p := range probes {
		addrs = append(addrs, p.addrs...)
	}
	slices.Sort(addrs)
	addrs = slices.Compact(addrs)
	var found []Found
	for _, addr := range addrs {
		if err := ctx.Err(); err != nil {
			return found, err
		}
		for _, f := range identify(&i2c.Dev{Bus: bus, Addr: addr}) {
			f.Bus, f.Addr = busName, addr
			found = append(found, f)
		}
	}
	return found, nil
}

// identify tries the probes of d's address in order, then, at the
// addresses of a DS2482, a DS2482 with what is behind it.
func identify(d *i2c.Dev) []Found {
	for _, p := range probes {
		if slices.Contains(p.addrs, d.Addr) {
			if f, ok := p.try(d); ok {
				return []Found{f}
			}
		}
	}
	if slices.Contains(ds2482Addrs, d.Addr) {
		return scanDS2482(d)
	}
	return nil
}

// ScanConfig is the configuration of the supported chips in found, all in
// zone: what climated runs when it finds chips and has no configuration.
func ScanConfig(found []Found, zone string) Config {
	var c Config
	for _, f := range found {
		if f.Chip != "" {
			c.Sensors = append(c.Sensors, f.Sensor(zone))
			c.Bus = f.Bus
		}
	}
	return c
}

// ConfigLines are the lines of a configuration file that read the chips in
// found, in zone; unsupported chips are listed as comments.
func ConfigLines(found []Found, zone string) []string {
	lines := []string{"sensors:"}
	for _, f := range found {
		if f.Chip == "" {
			lines = append(lines, fmt.Sprintf("  # %s", f))
			continue
		}
		if f.Device != "" {
			ch := ""
			if f.Channel != 0 {
				ch = fmt.Sprintf(", channel: %d", f.Channel)
			}
			lines = append(lines, fmt.Sprintf("  - {zone: %s, chip: %s, bus: %s, bridge: 0x%02x%s, device: %s}   # %s %s", zone, f.Chip, f.Bus, f.Addr, ch, f.Device, f.Name, f.Detail))
			continue
		}
		lines = append(lines, fmt.Sprintf("  - {zone: %s, chip: %s, bus: %s, address: 0x%02x}   # %s", zone, f.Chip, f.Bus, f.Addr, f.Detail))
	}
	return lines
}

// probeAM2320 wakes the chip (it NACKs the wake-up call, as it sleeps) and
// reads its registers 0–3 with function 0x03 (datasheet 7.2).
func probeAM2320(d *i2c.Dev) bool {
	_ = d.Tx([]byte{0}, nil)
	time.Sleep(time.Millisecond)
	if d.Tx([]byte{0x03, 0x00, 0x04}, nil) != nil {
		return false
	}
	time.Sleep(2 * time.Millisecond)
	r := make([]byte, 8)
	if d.Tx(nil, r) != nil || r[0] != 0x03 || r[1] != 0x04 {
		return false
	}
	return crc16Modbus(r[:6]) == uint16(r[6])|uint16(r[7])<<8
}

// crc16Modbus is the AM2320's checksum (polynomial 0xA001 reflected, init
// 0xFFFF), sent low byte first.
func crc16Modbus(b []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, x := range b {
		crc ^= uint16(x)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0xA001
			} else {
				crc >>= 1
			}
		}
	}
	return crc
}

// ScanBus opens bus with open (nil is OpenBus), scans it (Scan) and
// closes it again. An error opening the bus is returned as it is
// (ErrNoBus when there is none); a failed scan names the bus. ScanConfig
// turns what it finds into a configuration.
func ScanBus(ctx context.Context, open Opener, bus string) ([]Found, error) {
	if open == nil {
		open = OpenBus
	}
	b, err := open(bus)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	found, err := Scan(ctx, b, bus)
	if err != nil {
		return nil, fmt.Errorf("bus %s: %w", bus, err)
	}
	return found, nil
}
