package sensirion

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
)

// CRC8 is the checksum Sensirion appends to every 16-bit word: CRC-8 with
// polynomial x⁸+x⁵+x⁴+1 (0x31), initialised to 0xFF.
func CRC8(data []byte) byte {
	crc := byte(0xFF)
	for _, b := range data {
		crc ^= b
		for range 8 {
			if crc&0x80 != 0 {
				crc = crc<<1 ^ 0x31
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// CRCError is a word whose checksum does not match: a disturbed bus, a loose
// wire, or a chip that is not the one expected.
type CRCError struct {
	Word      int  // index of the word in the response, from 0
	Got, Want byte // the CRC received, the CRC of the received word
}

func (e *CRCError) Error() string {
	return fmt.Sprintf("bad crc on word %d: got 0x%02X, want 0x%02X", e.Word, e.Got, e.Want)
}

// ErrAllOnes is returned for a response of nothing but 0xFF bytes: no chip
// drove the bus (the pull-ups read as ones), which a CRC check alone would
// report less clearly.
var ErrAllOnes = errors.New("all bytes read are 0xFF: no chip drove the bus")

// ErrLength is returned when a response is not a whole number of words.
var ErrLength = errors.New("response length is not a multiple of 3 bytes")

// Words decodes a response of 3-byte groups (two data bytes, one CRC) into
// its words, checking every CRC.
func Words(b []byte) ([]uint16, error) {
	if len(b)%3 != 0 || len(b) == 0 {
		return nil, ErrLength
	}
	if AllOnes(b) {
		return nil, ErrAllOnes
	}
	words := make([]uint16, len(b)/3)
	for i := range words {
		g := b[3*i : 3*i+3]
		if want := CRC8(g[:2]); g[2] != want {
			return nil, &CRCError{Word: i, Got: g[2], Want: want}
		}
		words[i] = uint16(g[0])<<8 | uint16(g[1])
	}
	return words, nil
}

// Encode appends each word and its CRC to buf.
func Encode(buf []byte, words ...uint16) []byte {
	for _, w := range words {
		hi, lo := byte(w>>8), byte(w)
		buf = append(buf, hi, lo, CRC8([]byte{hi, lo}))
	}
	return buf
}

// Command writes a 16-bit command followed by its arguments (each with its
// CRC) to c.
func Command(c conn.Conn, cmd uint16, args ...uint16) error {
	return c.Tx(Encode8(cmd, args...), nil)
}

// Exec writes the command w (with its arguments) and waits for its
// execution time, during which the chip answers nothing, not even its
// address: the next command may follow at once.
func Exec(c conn.Conn, w []byte, wait time.Duration) error {
	if err := c.Tx(w, nil); err != nil {
		return err
	}
	if wait > 0 {
		time.Sleep(wait)
	}
	return nil
}

// Encode8 is the bytes of a 16-bit command followed by its arguments.
func Encode8(cmd uint16, args ...uint16) []byte {
	return Encode([]byte{byte(cmd >> 8), byte(cmd)}, args...)
}

// Read writes the command w, waits for delay (the chip's execution time)
// and reads n words. The write and the read are separate transactions, as
// Sensirion's chips expect: they do not answer a repeated start while they
// execute a command (SCD30 interface description 1.1: "SCD30 does not
// support repeated start condition"; SCD4x datasheet 3.3: "it is required
// to wait the command execution time before issuing the read header").
// Every Sensirion command in climated that has an answer is read here.
func Read(c conn.Conn, w []byte, delay time.Duration, n int) ([]uint16, error) {
	if err := Exec(c, w, delay); err != nil {
		return nil, err
	}
	r := make([]byte, 3*n)
	if err := c.Tx(nil, r); err != nil {
		return nil, err
	}
	return Words(r)
}

// String decodes the ASCII text that some commands answer (a product
// name, a serial number): two characters a word, most significant byte
// first, ending at the first NUL or with the last word.
func String(words []uint16) string {
	b := make([]byte, 0, 2*len(words))
	for _, w := range words {
		b = append(b, byte(w>>8), byte(w))
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// Uint32 is the 32-bit value a command sends or answers as two words,
// the most significant first.
func Uint32(hi, lo uint16) uint32 { return uint32(hi)<<16 | uint32(lo) }

// AllOnes reports whether b holds nothing but 0xFF bytes, what a read
// returns when no chip drives the bus.
func AllOnes(b []byte) bool {
	for _, x := range b {
		if x != 0xFF {
			return false
		}
	}
	return true
}

// Temperature converts the raw temperature of Sensirion's humidity sensors
// (SHT3x, SHT4x; TI's HDC302x uses the same): T = −45 °C + 175 °C · S / (2¹⁶ − 1).
func Temperature(raw uint16) physic.Temperature {
	return physic.ZeroCelsius - 45*physic.Celsius + physic.Temperature(175*int64(physic.Celsius)*int64(raw)/65535)
}

// Humidity converts a raw relative humidity: RH = offset + span · S / (2¹⁶ − 1),
// in percent, cropped to 0…100 %. The SHT3x's offset and span are 0 and 100,
// the SHT4x's −6 and 125.
func Humidity(raw uint16, offset, span int64) physic.RelativeHumidity {
	rh := offset*int64(physic.PercentRH) + span*int64(physic.PercentRH)*int64(raw)/65535
	return physic.RelativeHumidity(min(max(rh, 0), int64(100*physic.PercentRH)))
}

// ReadUint32 sends cmd (an 8-bit-argument command) and reads the two
// words of a 32-bit answer: the status register, the auto cleaning
// interval of Sensirion's particle sensors.
func ReadUint32(c conn.Conn, cmd uint16, delay time.Duration) (uint32, error) {
	w, err := Read(c, Encode8(cmd), delay, 2)
	if err != nil {
		return 0, err
	}
	return Uint32(w[0], w[1]), nil
}

// CleaningInterval is the auto cleaning interval i of a particle sensor's
// fan (SEN5x, SPS30) in the seconds the chip takes; a negative one means
// the chip's own default and returns 0.
func CleaningInterval(i time.Duration) (uint32, error) {
	switch {
	case i < 0:
		return 0, nil
	case i%time.Second != 0 || i/time.Second > math.MaxUint32:
		return 0, fmt.Errorf("auto cleaning interval %s: want whole seconds, at most 2³²−1", i)
	}
	return uint32(i / time.Second), nil
}
