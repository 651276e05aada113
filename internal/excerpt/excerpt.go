// Package excerpt quotes what a device, a client or a file sent in an
// error message, at a bounded length: a value of a megabyte makes an
// error of a line, not of a megabyte.
package excerpt

import (
	"fmt"
	"strconv"
	"strings"
)

// Max is how many bytes of a value Quote shows.
const Max = 64

// Quote is s quoted as Go quotes strings (%q), cut to its first Max
// bytes (at a character's boundary) and followed by its length when it
// is longer.
func Quote(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	cut := Max
	for cut > 0 && !startsRune(s[cut]) {
		cut--
	}
	return strconv.Quote(strings.ToValidUTF8(s[:cut], "")) + fmt.Sprintf("…(%d bytes)", len(s))
}

// startsRune says whether b can begin a character in UTF-8.
func startsRune(b byte) bool { return b&0xC0 != 0x80 }
