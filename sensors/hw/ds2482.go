package hw

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/onewire"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/devices/v3/ds248x"
)

// DS2482 I²C to 1-wire bridges (DS2482-100: one 1-wire channel, at
// 0x18–0x1b; DS2482-800: eight, at 0x18–0x1f) are driven by periph's
// ds248x, around its faults:
//
//   - its New accepts 0x18, 0x19, 0x20 and 0x21 (hexadecimal mixed up with
//     decimal) and refuses 0x1a–0x1f: the driver is always given 0x18, and
//     the bridge, which is its bus, sends the traffic to the real address;
//   - after a fault of the chip or of the I²C bus (not of the 1-wire bus
//     behind it) it fails every later call, and it formats errors with %s,
//     which loses their kind: the bridge is opened anew (reset and
//     configured) by its next use, and faults are classified from their
//     text as for the other drivers;
//   - "no device present" is a plain bus error, not an
//     onewire.NoDevicesError: it is recognised by its message (ErrNoAck);
//   - ChannelSelect does not read back what the DS2482-800 selected:
//     SelectedChannel checks it;
//   - after its reset it wants status 0x18 exactly, so a 1-wire line held
//     low reads as "invalid status": resetDS2482 looks first and says so.
//
// Datasheets:
// https://www.analog.com/media/en/technical-documentation/data-sheets/DS2482-100.pdf
// https://www.analog.com/media/en/technical-documentation/data-sheets/DS2482-800.pdf

// ds2482Addrs are the addresses a DS2482 can have.
var ds2482Addrs = []uint16{0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f}

// Device reset (0xF0) and the status register after it: RST set, and LL,
// the level of the 1-wire line, high.
const (
	ds2482Reset       = 0xF0
	ds2482StatusReset = 0x18
	ds2482RST         = 0x10
	ds2482x800        = "DS2482-800"
)

// bridge is one DS2482 on one I²C bus, shared by the DS18B20s behind it.
// Its lock is held for one 1-wire transaction (a reset and the bytes
// written and read: a few milliseconds), and across the conversion of a
// parasite-powered DS18B20, whose power, the strong pull-up, ends with
// the next 1-wire command.
type bridge struct {
	addr uint16
	mu   sync.Mutex
	via  i2c.Bus     // the bus of the sensor holding mu
	dev  *ds248x.Dev // nil until opened, and after a fault of the bridge itself
	kind string      // "DS2482-100", "DS2482-800" or "DS2483", as periph tells them apart
	ch   int         // the channel selected (DS2482-800)
}

// Tx implements i2c.Bus for periph's driver, which addresses the chip as
// 0x18 whatever its address.
func (br *bridge) Tx(_ uint16, w, r []byte) error { return br.via.Tx(br.addr, w, r) }

func (br *bridge) String() string { return fmt.Sprintf("%s/0x%02x", br.via, br.addr) }

// SetSpeed implements i2c.Bus; see guard.SetSpeed.
func (br *bridge) SetSpeed(physic.Frequency) error { return errSpeed }

// do runs f on the 1-wire bus of channel ch, the bridge's traffic going
// through via; br.mu is held. It opens the bridge if it is not, and drops
// it after a fault of its own, which periph's driver cannot recover from.
func (br *bridge) do(via i2c.Bus, ch int, f func(d *ds248x.Dev) error) error {
	br.via = via
	if br.dev == nil {
		if err := br.open(); err != nil {
			return fmt.Errorf("open the DS2482: %w", err)
		}
	}
	if ch != br.ch {
		if err := br.selectChannel(ch); err != nil {
			return err
		}
	}
	err := f(br.dev)
	if err == nil {
		return nil
	}
	var be onewire.BusError
	if !errors.As(err, &be) || !be.BusError() {
		br.dev = nil
		return err
	}
	var short onewire.ShortedBusError
	switch {
	case errors.As(err, &short) && short.IsShorted():
		return fmt.Errorf("%w: check the 1-wire wiring (%w)", ErrShort, err)
	case strings.Contains(err.Error(), "no device present"):
		return fmt.Errorf("%w: no presence pulse on the 1-wire bus: is the DS18B20 wired and powered? (%w)", ErrNoAck, err)
	}
	return err
}

// open resets and configures the bridge (active pull-up, standard speed,
// channel 0); br.mu is held.
func (br *bridge) open() error {
	if err := resetDS2482(br.via, br.addr); err != nil {
		return err
	}
	d, err := ds248x.New(br, 0x18, &ds248x.DefaultOpts)
	if err != nil {
		return err
	}
	br.dev, br.ch = d, 0
	br.kind, _, _ = strings.Cut(d.String(), "{")
	return nil
}

func (br *bridge) selectChannel(ch int) error {
	if br.kind != ds2482x800 {
		return fmt.Errorf("channel %d: the %s at 0x%02x has one 1-wire channel, 0", ch, br.kind, br.addr)
	}
	if err := br.dev.ChannelSelect(ch); err != nil {
		br.dev = nil
		return fmt.Errorf("select channel %d: %w", ch, err)
	}
	if got := br.dev.SelectedChannel(); got != ch {
		br.dev = nil
		return fmt.Errorf("select channel %d: the DS2482-800 reports channel %d", ch, got)
	}
	br.ch = ch
	return nil
}

// resetDS2482 resets the chip at addr (it is left reading its status
// register) and checks the status a DS2482 has after a reset. Only the
// reset command is written before the check, a byte that a register chip
// at these addresses takes as a register pointer.
func resetDS2482(b i2c.Bus, addr uint16) error {
	if err := b.Tx(addr, []byte{ds2482Reset}, nil); err != nil {
		return err
	}
	r := make([]byte, 1)
	if err := b.Tx(addr, nil, r); err != nil {
		return err
	}
	switch r[0] {
	case ds2482StatusReset:
		return nil
	case ds2482RST:
		return fmt.Errorf("%w: the 1-wire line is held low after the DS2482's reset", ErrShort)
	case 0xFF:
		return ErrAllOnes
	}
	return &WrongChipError{Reg: "status after reset", Got: uint16(r[0]), Want: []uint16{ds2482StatusReset}}
}

// scanDS2482 identifies a DS2482 at d and lists it, then the devices on
// each of its 1-wire channels. Unlike the other probes it changes the
// chip's state: it resets it (a DS2482 keeps no settings; a reading it was
// making for a running hub fails once and is retried), but it writes
// nothing else before the status after the reset has shown a DS2482.
func scanDS2482(d *i2c.Dev) []Found {
	br := &bridge{addr: d.Addr}
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.do(d.Bus, 0, func(*ds248x.Dev) error { return nil }) != nil {
		return nil
	}
	behind, detail := br.search(d.Bus)
	return append([]Found{{Name: br.kind, Detail: detail, Bridge: true}}, behind...)
}

// search lists the devices on each 1-wire channel of the bridge, and says
// in detail what it found; br.mu is held.
func (br *bridge) search(via i2c.Bus) (found []Found, detail string) {
	channels := 1
	if br.kind == ds2482x800 {
		channels = 8
	}
	var notes []string
	for ch := range channels {
		var roms []onewire.Address
		err := br.do(via, ch, func(d *ds248x.Dev) error {
			var err error
			roms, err = d.Search(false)
			return err
		})
		if err != nil && !errors.Is(err, ErrNoAck) {
			notes = append(notes, fmt.Sprintf("channel %d: %v", ch, err))
		}
		for _, rom := range roms {
			found = append(found, br.foundDevice(rom, ch))
		}
	}
	detail = fmt.Sprintf("I²C to 1-wire bridge: %d device(s) on its 1-wire bus", len(found))
	if len(notes) > 0 {
		detail += "; " + strings.Join(notes, "; ")
	}
	return found, detail
}

// foundDevice is a 1-wire device that a search found behind the bridge.
func (br *bridge) foundDevice(rom onewire.Address, ch int) Found {
	f := Found{Addr: br.addr, Device: idOf(rom), Channel: ch, Detail: "via the " + br.kind}
	if br.kind == ds2482x800 {
		f.Detail += fmt.Sprintf(" channel %d", ch)
	}
	f.Detail += ", rom crc ok"
	family := byte(rom)
	if name, ok := dsFamilies[family]; ok {
		f.Chip, f.Name = chipDS18B20, name
	} else if f.Name, ok = otherFamilies[family]; !ok {
		f.Name = fmt.Sprintf("1-wire family 0x%02x", family)
	}
	return f
}
