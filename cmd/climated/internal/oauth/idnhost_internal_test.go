package oauth

import "testing"

// TestShownHost: an internationalised host is shown with its ASCII form
// beside it. The expected forms are RFC 3492 §7.1's samples and names as
// browsers show them in their address bar.
func TestShownHost(t *testing.T) {
	for host, want := range map[string]string{
		"apple.com":              "apple.com",
		"app.example:443":        "app.example:443",
		"аpple.com":              "аpple.com (xn--pple-43d.com)", // a Cyrillic а
		"bücher.example":         "bücher.example (xn--bcher-kva.example)",
		"例え.テスト:8443":            "例え.テスト:8443 (xn--r8jz45g.xn--zckzah:8443)",
		"他们为什么不说中文":              "他们为什么不说中文 (xn--ihqwcrb4cv8a8dqg056pqjye)",                    // RFC 3492 §7.1 (B)
		"Pročprostěnemluvíčesky": "Pročprostěnemluvíčesky (xn--proprostnemluvesky-uyb24dma41a)", // (C), lowered
	} {
		if got := shownHost(host); got != want {
			t.Errorf("shownHost(%q) = %q, want %q", host, got, want)
		}
	}
}
