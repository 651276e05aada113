package sensirion

import (
	"errors"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

func TestCRC8(t *testing.T) {
	tests := []struct {
		in   []byte
		want byte
	}{
		{[]byte{0xBE, 0xEF}, 0x92}, // the datasheet's worked example
		{[]byte{0x00, 0x00}, 0x81}, // SCD30 start-measurement argument 0
		{[]byte{0x00, 0x02}, 0xE3}, // SCD30 interval argument 2 s
		{[]byte{0x43, 0xDB}, 0xCB}, // SCD30 example measurement, first word
		{[]byte{0xFF, 0xFF}, 0xAC},
	}
	for _, tt := range tests {
		if got := CRC8(tt.in); got != tt.want {
			t.Errorf("CRC8(% X) = 0x%02X, want 0x%02X", tt.in, got, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    []uint16
		wantErr error
	}{
		{"two words", []byte{0xBE, 0xEF, 0x92, 0x00, 0x00, 0x81}, []uint16{0xBEEF, 0}, nil},
		{"bad crc on second word", []byte{0xBE, 0xEF, 0x92, 0x00, 0x00, 0x80}, nil, &CRCError{Word: 1, Got: 0x80, Want: 0x81}},
		{"all ones", []byte{0xFF, 0xFF, 0xFF}, nil, ErrAllOnes},
		{"short", []byte{0xBE, 0xEF}, nil, ErrLength},
		{"empty", nil, nil, ErrLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Words(tt.in)
			var crcWant *CRCError
			switch {
			case errors.As(tt.wantErr, &crcWant):
				var crcGot *CRCError
				if !errors.As(err, &crcGot) || *crcGot != *crcWant {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
			case !errors.Is(err, tt.wantErr):
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %04X, want %04X", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("word %d = 0x%04X, want 0x%04X", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestEncode8(t *testing.T) {
	// SCD30 "set measurement interval 2 s" from its interface description.
	got := Encode8(0x4600, 2)
	want := []byte{0x46, 0x00, 0x00, 0x02, 0xE3}
	if string(got) != string(want) {
		t.Errorf("Encode8 = % X, want % X", got, want)
	}
}

func TestReadAndCommand(t *testing.T) {
	bus := i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x61, W: []byte{0x00, 0x10, 0x00, 0x00, 0x81}},
		{Addr: 0x61, W: []byte{0xD1, 0x00}},
		{Addr: 0x61, R: []byte{0x03, 0x42, 0xF3}},
	}}
	d := &i2c.Dev{Bus: &bus, Addr: 0x61}
	if err := Command(d, 0x0010, 0); err != nil {
		t.Fatal(err)
	}
	w, err := Read(d, []byte{0xD1, 0x00}, time.Millisecond, 1)
	if err != nil {
		t.Fatal(err)
	}
	if w[0] != 0x0342 {
		t.Errorf("word = 0x%04X, want 0x0342", w[0])
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		words []uint16
		want  string
	}{
		// SPS30 product type, always "00080000" without a NUL (SPS30
		// datasheet v2.0, section 6.3.9).
		{[]uint16{0x3030, 0x3038, 0x3030, 0x3030}, "00080000"},
		// SEN5x product name, NUL-terminated in 32 characters (SEN5x
		// datasheet v2, section 6.1.14).
		{[]uint16{0x5345, 0x4E35, 0x3500, 0x0000, 0x4142}, "SEN55"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := String(tt.words); got != tt.want {
			t.Errorf("String(%04X) = %q, want %q", tt.words, got, tt.want)
		}
	}
	if got := Uint32(0x0009, 0x3A80); got != 604800 {
		t.Errorf("Uint32 = %d, want 604800", got)
	}
}
