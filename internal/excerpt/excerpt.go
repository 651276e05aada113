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

// Quote is Cut(s) quoted as Go quotes strings (%q): the first Max bytes
// (at a character's boundary) in quotes, followed by s's length when it
// is longer.
func Quote(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	return strconv.Quote(head(s)) + fmt.Sprintf("…(%d bytes)", len(s))
}

// Cut is s as a log line shows it: its first Max bytes (at a character's
// boundary, invalid UTF-8 dropped), followed by its length when it is
// longer.
func Cut(s string) string {
	if len(s) <= Max {
		return s
	}
	return head(s) + fmt.Sprintf("…(%d bytes)", len(s))
}

// head is s's first Max bytes at most, cut at a character's boundary,
// without invalid UTF-8.
func head(s string) string {
	cut := Max
	for cut > 0 && !startsRune(s[cut]) {
		cut--
	}
	return strings.ToValidUTF8(s[:cut], "")
}

// startsRune says whether b can begin a character in UTF-8.
func startsRune(b byte) bool { return b&0xC0 != 0x80 }
