package alerts

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A rule's name goes into every event's text, and from there into logs,
// the webhook's push notifications, MQTT entity names and the assistants'
// answers. A line break in it would forge a log line or a second line of
// a notification, a NUL cut a C string short, a bidi control (U+202E
// RIGHT-TO-LEFT OVERRIDE) make "above 1200 ppm" read differently from
// what it says. So names hold no control characters (Cc), no format
// characters (Cf: bidi controls, zero-width characters, soft hyphen), no
// line or paragraph separators (Zl, Zp) and only valid UTF-8.

// charNames are the names of the characters a name most likely holds by
// mistake or by malice; others are named by their category.
var charNames = map[rune]string{
	0x00: "NUL", 0x09: "TAB", 0x0A: "LINE FEED", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE",
	0x85: "NEXT LINE", 0xAD: "SOFT HYPHEN", 0x061C: "ARABIC LETTER MARK",
	0x200B: "ZERO WIDTH SPACE", 0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER",
	0x200E: "LEFT-TO-RIGHT MARK", 0x200F: "RIGHT-TO-LEFT MARK",
	0x2028: "LINE SEPARATOR", 0x2029: "PARAGRAPH SEPARATOR",
	0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
	0xFEFF: "ZERO WIDTH NO-BREAK SPACE (byte order mark)",
}

// badChar reports whether a name may not hold r, and what r is.
func badChar(r rune) (string, bool) {
	var kind string
	switch {
	case unicode.Is(unicode.Cc, r):
		kind = "a control character"
	case unicode.Is(unicode.Cf, r):
		kind = "a format character"
	case unicode.In(r, unicode.Zl, unicode.Zp):
		kind = "a line break"
	default:
		return "", false
	}
	if name := charNames[r]; name != "" {
		return fmt.Sprintf("U+%04X (%s), %s", r, name, kind), true
	}
	return fmt.Sprintf("U+%04X, %s", r, kind), true
}

// validateName says which character of name is not allowed, and where.
func validateName(name string) error {
	n := 0
	for i, r := range name {
		n++
		what, bad := badChar(r)
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(name[i:]); size == 1 {
				what, bad = fmt.Sprintf("the byte 0x%02X, not UTF-8", name[i]), true
			}
		}
		if bad {
			return invalid("name", "character %d of %q is %s; a name may hold only UTF-8 text without control or format characters (line breaks, NUL, bidi controls such as U+202E): they would change how the alert's text reads", n, name, what)
		}
	}
	return nil
}

// safeName is name with every character validateName refuses written as
// an escape (\u202E, \x00): for names kept before names were checked.
func safeName(name string) string {
	if validateName(name) == nil {
		return name
	}
	var b strings.Builder
	for i, r := range name {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(name[i:]); size == 1 {
				fmt.Fprintf(&b, `\x%02X`, name[i])
				continue
			}
		}
		if _, bad := badChar(r); bad {
			fmt.Fprintf(&b, `\u%04X`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
