package hw

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/onewire"
	"periph.io/x/devices/v3/ds248x"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/sensirion"
)

// A DS18B20 behind a DS2482 is read with periph's 1-wire primitives (match
// ROM, the Dallas CRC) rather than its ds18b20 package, whose
//
//   - LastTemp compares the reading with 85 K rather than 85 °C
//     (85*physic.Celsius without physic.ZeroCelsius), so the power-on
//     value is never caught;
//   - New writes the resolution, with both alarm bytes set to 0, into the
//     chip's EEPROM when it differs from the one asked for;
//   - Sense sleeps through the conversion with no say over the bridge,
//     which a parasite-powered chip needs held.
//
// A reading (datasheet, "Transaction sequence"): 1-wire reset, Match ROM,
// Convert T (0x44) followed by the strong pull-up; the conversion time of
// the chip's resolution (750 ms at 12 bits); reset, Match ROM, Read
// Scratchpad (0xBE): 9 bytes, the last the CRC of the first 8. A
// scratchpad of all ones, a wrong CRC, a configuration byte that is not a
// DS18B20's and the 85 °C power-on value are faults (checkScratchpad,
// scratchpadTemp). Nothing is ever written to a DS18B20's EEPROM.
//
// Datasheet: https://www.analog.com/media/en/technical-documentation/data-sheets/DS18B20.pdf

// DS18B20 function commands.
const (
	dsConvert     = 0x44
	dsScratchpad  = 0xBE
	dsPowerSupply = 0xB4
	dsPowerOnRaw  = 0x0550 // 85 °C in 1/16 °C
)

// dsFamilies are the 1-wire families whose scratchpad is the DS18B20's,
// read behind a DS2482; otherFamilies are thermometers known by name.
var (
	dsFamilies    = map[byte]string{0x28: "DS18B20", 0x22: "DS1822", 0x42: "DS28EA00"}
	otherFamilies = map[byte]string{0x10: "DS18S20", 0x3b: "MAX31850"}
)

// romOf is the 64-bit ROM of a DS18B20 from its ID as the kernel names it
// (28-0316a2791fff: family, then the 48-bit serial number): the family in
// the low byte, the serial, and the CRC of both in the top byte. The
// configuration names a thermometer by the kernel's ID behind a bridge
// too, so it moves between the kernel's w1 bus and a bridge without a new
// ID.
func romOf(id string) (onewire.Address, error) {
	if !validW1ID(id) {
		return 0, fmt.Errorf("want the 1-wire ID of a DS18B20, e.g. 28-0316a2791fff")
	}
	family, _ := strconv.ParseUint(id[:2], 16, 8)
	if _, ok := dsFamilies[byte(family)]; !ok {
		return 0, fmt.Errorf("family %s (%s) is read only through the kernel's 1-wire driver (bus: w1); behind a DS2482, climated reads families 28, 22 and 42", id[:2], otherFamilies[byte(family)])
	}
	serial, _ := strconv.ParseUint(id[3:], 16, 48)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], serial<<8|family)
	b[7] = onewire.CalcCRC(b[:7])
	return onewire.Address(binary.LittleEndian.Uint64(b[:])), nil
}

// idOf is the kernel's name of a 1-wire device.
func idOf(a onewire.Address) string {
	return fmt.Sprintf("%02x-%012x", byte(a), uint64(a)>>8&(1<<48-1))
}

// ds18b20 is a DS18B20 on channel ch of a DS2482.
type ds18b20 struct {
	br       *bridge
	via      i2c.Bus // the sensor's guard
	ch       int
	rom      onewire.Address
	conv     time.Duration // conversion time at the chip's resolution
	parasite bool          // powered from the data line: the bridge stays held across a conversion
}

// openDS18B20 reads the chip's scratchpad, which proves that it answers
// its ROM (a missing chip reads as all ones) and gives its resolution, and
// asks whether it is parasite-powered (Read Power Supply: such a chip
// pulls the read slots low). Nothing is written to the chip.
func openDS18B20(br *bridge, via i2c.Bus, ch int, rom onewire.Address) (device, error) {
	d := &ds18b20{br: br, via: via, ch: ch, rom: rom}
	br.mu.Lock()
	defer br.mu.Unlock()
	sp, err := d.scratchpad()
	if err != nil {
		return nil, err
	}
	d.conv = 94 * time.Millisecond << (sp[4] >> 5 & 3) // 94, 188, 376, 752 ms for 9…12 bits
	r := make([]byte, 1)
	if err := d.tx([]byte{dsPowerSupply}, r, onewire.WeakPullup); err != nil {
		return nil, fmt.Errorf("read power supply: %w", err)
	}
	d.parasite = r[0]&1 == 0
	return d, nil
}

func (d *ds18b20) sense() ([]value, error) {
	d.br.mu.Lock()
	defer d.br.mu.Unlock()
	if err := d.tx([]byte{dsConvert}, nil, onewire.StrongPullup); err != nil {
		return nil, fmt.Errorf("convert T: %w", err)
	}
	if d.parasite {
		time.Sleep(d.conv)
	} else {
		// Other chips behind the bridge may talk meanwhile.
		d.br.mu.Unlock()
		time.Sleep(d.conv)
		d.br.mu.Lock()
	}
	sp, err := d.scratchpad()
	if err != nil {
		return nil, err
	}
	t, err := scratchpadTemp(sp)
	if err != nil {
		return nil, err
	}
	return []value{{sensors.Temperature, t}}, nil
}

// tx selects the chip (Match ROM), writes w and reads r, ending with the
// strong pull-up if power says so; br.mu is held.
func (d *ds18b20) tx(w, r []byte, power onewire.Pullup) error {
	return d.br.do(d.via, d.ch, func(dev *ds248x.Dev) error {
		o := onewire.Dev{Bus: dev, Addr: d.rom}
		if power == onewire.StrongPullup {
			return o.TxPower(w, r)
		}
		return o.Tx(w, r)
	})
}

// scratchpad reads and checks the chip's scratchpad; br.mu is held.
func (d *ds18b20) scratchpad() ([]byte, error) {
	sp := make([]byte, 9)
	if err := d.tx([]byte{dsScratchpad}, sp, onewire.WeakPullup); err != nil {
		return nil, fmt.Errorf("read scratchpad: %w", err)
	}
	if err := checkScratchpad(sp); err != nil {
		return nil, fmt.Errorf("read scratchpad: %w", err)
	}
	return sp, nil
}

// checkScratchpad rejects a scratchpad of all ones (no chip answered its
// ROM), one whose CRC does not match, and one whose configuration byte
// lacks the fixed bits of a DS18B20's (0rr11111), so that nine zero bytes,
// whose CRC is 0, are not taken for 0 °C.
func checkScratchpad(sp []byte) error {
	switch {
	case sensirion.AllOnes(sp):
		return fmt.Errorf("%w (no chip answered its ROM: is it on this bridge and channel?)", ErrAllOnes)
	case !onewire.CheckCRC(sp):
		return fmt.Errorf("%w: scratchpad % x: crc 0x%02x, want 0x%02x", ErrCRC, sp, sp[8], onewire.CalcCRC(sp[:8]))
	case sp[4]&0x9F != 0x1F:
		return fmt.Errorf("scratchpad % x: configuration 0x%02x is not a DS18B20's", sp, sp[4])
	}
	return nil
}

// scratchpadTemp is the temperature of a checked scratchpad: a two's
// complement in 1/16 °C whose bits below the chip's resolution are
// undefined (datasheet, "Temperature register format").
func scratchpadTemp(sp []byte) (float64, error) {
	raw := int16(binary.LittleEndian.Uint16(sp))
	bits := 9 + int(sp[4]>>5&3)
	raw &^= 1<<(12-bits) - 1
	if raw == dsPowerOnRaw {
		return 0, errPowerOn
	}
	return float64(raw) / 16, nil
}
