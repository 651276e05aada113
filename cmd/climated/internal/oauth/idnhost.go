package oauth

import (
	"net"
	"strings"
	"unicode/utf8"
)

// shownHost is a redirect URI's host as the consent page shows it: a
// host with letters outside ASCII (an internationalised name, perhaps a
// look-alike: "аpple.com" with a Cyrillic а) gets its ASCII form beside
// it, "xn--pple-43d.com", which no look-alike shares, so that the owner
// sees which site the answer goes to. (golang.org/x/net/idna would do the
// whole of IDNA, but brings golang.org/x/text and its tables into a
// binary near its size budget; for showing a name, each label lowered
// and encoded with Punycode, RFC 3492, is the part that matters.)
func shownHost(host string) string {
	if ascii := asciiHost(host); ascii != host {
		return host + " (" + ascii + ")"
	}
	return host
}

// asciiHost is host with each label outside ASCII lowered and encoded
// with Punycode ("xn--…"), as DNS and a browser's Content-Security-Policy
// matching take it; an ASCII host as it is.
func asciiHost(host string) string {
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = host, ""
	}
	if isASCII(name) {
		return host
	}
	labels := strings.Split(strings.ToLower(name), ".")
	for i, l := range labels {
		if !isASCII(l) {
			labels[i] = "xn--" + punycode(l)
		}
	}
	ascii := strings.Join(labels, ".")
	if port != "" {
		ascii = net.JoinHostPort(ascii, port)
	}
	return ascii
}

func isASCII(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r >= utf8.RuneSelf || r < 0x20 }) < 0
}

// Punycode's parameters (RFC 3492 §5).
const (
	pcBase, pcTMin, pcTMax, pcSkew, pcDamp = 36, 1, 26, 38, 700
	pcInitialBias, pcInitialN              = 72, 128
)

// punycode encodes one label (RFC 3492 §6.3).
func punycode(label string) string {
	runes := []rune(label)
	var out strings.Builder
	for _, r := range runes {
		if r < utf8.RuneSelf {
			out.WriteRune(r)
		}
	}
	b := out.Len()
	h := b
	if b > 0 {
		out.WriteByte('-')
	}
	n, delta, bias := rune(pcInitialN), 0, pcInitialBias
	for h < len(runes) {
		m := rune(0x10FFFF)
		for _, r := range runes {
			if r >= n && r < m {
				m = r
			}
		}
		delta += int(m-n) * (h + 1)
		n = m
		for _, r := range runes {
			if r < n {
				delta++
			}
			if r != n {
				continue
			}
			writeVarint(&out, delta, bias)
			bias = adapt(delta, h+1, h == b)
			delta = 0
			h++
		}
		delta++
		n++
	}
	return out.String()
}

// writeVarint writes q as Punycode's generalized variable-length integer.
func writeVarint(out *strings.Builder, q, bias int) {
	for k := pcBase; ; k += pcBase {
		t := min(max(k-bias, pcTMin), pcTMax)
		if q < t {
			out.WriteByte(pcDigit(q))
			return
		}
		out.WriteByte(pcDigit(t + (q-t)%(pcBase-t)))
		q = (q - t) / (pcBase - t)
	}
}

func pcDigit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

// adapt is Punycode's bias adaptation (RFC 3492 §6.1).
func adapt(delta, points int, first bool) int {
	if first {
		delta /= pcDamp
	} else {
		delta /= 2
	}
	delta += delta / points
	k := 0
	for delta > ((pcBase-pcTMin)*pcTMax)/2 {
		delta /= pcBase - pcTMin
		k += pcBase
	}
	return k + (pcBase-pcTMin+1)*delta/(delta+pcSkew)
}
