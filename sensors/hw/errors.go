package hw

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/sensirion"
)

// Error is a fault of one sensor. It names the chip, the bus and the
// address, and what was being done; errors.Is tells the kind of fault
// (ErrNoBus, ErrPermission, ErrNoAck, ErrAllOnes, ErrCRC, ErrShort,
// ErrTimeout) and errors.As the typed ones (*WrongChipError,
// *UnsupportedError, *RangeError).
type Error struct {
	Chip   string // canonical chip name, e.g. "bme280"
	Bus    string // "1" for /dev/i2c-1, "w1" for the kernel's 1-wire bus, the interface for Wi-Fi
	Addr   uint16 // I²C address (of the DS2482 bridge for a DS18B20 behind one); 0 where there is none
	Device string // a DS18B20's 1-wire ID, e.g. 28-0316a2791fff
	Op     string // "open bus", "start", "read"
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s: %v", e.where(), e.Op, e.Err)
}

func (e *Error) where() string {
	switch {
	case e.Chip == chipWiFi:
		return "wifi " + e.Bus
	case e.Device != "" && e.Addr != 0:
		return fmt.Sprintf("%s %s via the DS2482 at 0x%02x on i2c bus %s", e.Chip, e.Device, e.Addr, e.Bus)
	case e.Device != "":
		return fmt.Sprintf("%s %s on %s bus %s", e.Chip, e.Device, busKind(e.Bus), e.Bus)
	case e.Addr == 0:
		return fmt.Sprintf("%s on %s bus %s", e.Chip, busKind(e.Bus), e.Bus)
	default:
		return fmt.Sprintf("%s on i2c bus %s at 0x%02x", e.Chip, e.Bus, e.Addr)
	}
}

func (e *Error) Unwrap() error { return e.Err }

// Kinds of faults, for errors.Is.
var (
	ErrNoBus      = errors.New("no such I²C bus")                // no /dev/i2c-N
	ErrPermission = errors.New("permission denied")              // no permission to open the bus
	ErrNoAck      = errors.New("no answer from the chip (NACK)") // or no presence pulse on a 1-wire bus
	ErrAllOnes    = sensirion.ErrAllOnes                         // a read of nothing but 0xFF: nothing drives the bus
	ErrCRC        = errors.New("checksum mismatch")              // a Sensirion word, a DS18B20's scratchpad, the kernel's 1-wire check
	ErrShort      = errors.New("1-wire bus shorted")             // or held low
	ErrTimeout    = errors.New("timed out")                      // the attempt timeout, or a chip with no new measurement
	ErrNoWiFi     = errors.New("no wireless interface")          // said once, not a fault, when no interface is configured
)

// WrongChipError is a chip-ID register that does not hold the ID of the
// configured chip.
type WrongChipError struct {
	Reg  string // the register, e.g. "0xD0"
	Got  uint16
	Want []uint16
	Is   string // what the ID says the chip is, if known
}

func (e *WrongChipError) Error() string {
	want := make([]string, len(e.Want))
	for i, w := range e.Want {
		want[i] = fmt.Sprintf("0x%02X", w)
	}
	msg := fmt.Sprintf("wrong chip: register %s holds 0x%02X, want %s", e.Reg, e.Got, strings.Join(want, " or "))
	if e.Is != "" {
		msg += " (that is a " + e.Is + ")"
	}
	return msg
}

// UnsupportedError is a chip that is the configured chip, by its ID, but
// a variant of it that the driver climated uses cannot drive (a BMP280
// engineering sample): it will not be read, whatever the configuration.
type UnsupportedError struct {
	Reg       string   // the ID register, e.g. "0xD0"
	Got       uint16   // its value
	Is        string   // what the ID says the chip is
	Supported []uint16 // the IDs of this chip that are supported
	Why       string   // why this one is not
}

func (e *UnsupportedError) Error() string {
	ids := make([]string, len(e.Supported))
	for i, w := range e.Supported {
		ids[i] = fmt.Sprintf("0x%02X", w)
	}
	return fmt.Sprintf("not supported: register %s holds 0x%02X, a %s: %s; supported: %s",
		e.Reg, e.Got, e.Is, e.Why, strings.Join(ids, ", "))
}

// RangeError is a value outside what the chip can measure or the
// measurement allows: a broken or mis-read chip. The whole sample is
// dropped.
type RangeError struct {
	Measurement sensors.Measurement
	Value       float64
	Min, Max    float64
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("%s %.4g is outside %g…%g", e.Measurement, e.Value, e.Min, e.Max)
}

// StaleError is reported in a sensor's Status once it has not answered
// for StaleAfter intervals: its latest reading is old, not current.
type StaleError struct {
	Since  time.Time // the latest successful reading, or the start
	Missed int       // whole intervals missed
	Last   error     // the latest fault
}

func (e *StaleError) Error() string {
	return fmt.Sprintf("stale: no reading since %s (%d intervals missed): %v",
		e.Since.Format(time.RFC3339), e.Missed, e.Last)
}

func (e *StaleError) Unwrap() error { return e.Last }

// classify adds the kind of fault to err, where periph's drivers give it
// only as text (its sysfs bus formats errno with %v).
func classify(err error) error {
	if err == nil {
		return nil
	}
	var crc *sensirion.CRCError
	msg := err.Error()
	switch {
	case errors.Is(err, ErrNoAck), errors.Is(err, ErrCRC), errors.Is(err, ErrAllOnes), errors.Is(err, ErrShort),
		errors.Is(err, ErrPermission), errors.Is(err, ErrNoBus), errors.Is(err, ErrTimeout):
		return err
	case errors.As(err, &crc), strings.Contains(strings.ToLower(msg), "crc"):
		return fmt.Errorf("%w: %w", ErrCRC, err)
	case strings.Contains(msg, "remote I/O error"), strings.Contains(msg, "no such device or address"):
		return fmt.Errorf("%w: is it connected, powered and at this address? (%w)", ErrNoAck, err)
	case strings.Contains(msg, "permission denied"), strings.Contains(msg, "operation not permitted"):
		return fmt.Errorf("%w: %w", ErrPermission, err)
	}
	return err
}
