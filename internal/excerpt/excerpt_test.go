package excerpt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"warm", `"warm"`},
		{"K\xfcche", `"K\xfcche"`},
		{strings.Repeat("a", Max), `"` + strings.Repeat("a", Max) + `"`},
		{strings.Repeat("a", 1<<20), `"` + strings.Repeat("a", Max) + `"…(1048576 bytes)`},
		{strings.Repeat("a", Max-1) + "ü" + "rest", `"` + strings.Repeat("a", Max-1) + `"…(69 bytes)`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%.20q…) = %.90s, want %.90s", c.in, got, c.want)
		}
		if got := Quote(c.in); !utf8.ValidString(got) || len(got) > 2*Max+32 {
			t.Errorf("Quote(%.20q…) is %d bytes, valid UTF-8 %v", c.in, len(got), utf8.ValidString(got))
		}
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"GW2000A_V2.1.4", "GW2000A_V2.1.4"},
		{strings.Repeat("a", 1<<20), strings.Repeat("a", Max) + "…(1048576 bytes)"},
		{strings.Repeat("a", Max-1) + "ü" + "rest", strings.Repeat("a", Max-1) + "…(69 bytes)"},
		{strings.Repeat("a", Max) + "\xff", strings.Repeat("a", Max) + "…(65 bytes)"},
	} {
		if got := Cut(c.in); got != c.want {
			t.Errorf("Cut(%.20q…) = %.90s, want %.90s", c.in, got, c.want)
		}
	}
}
