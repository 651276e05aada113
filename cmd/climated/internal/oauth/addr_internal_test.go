package oauth

import (
	"net/netip"
	"testing"
)

// TestPublicAddrEmbeddedIPv4: IPv6 forms that carry a loopback or private
// IPv4 address are refused as their IPv4 address is; those carrying a
// public one are not.
func TestPublicAddrEmbeddedIPv4(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1": false, "::ffff:127.0.0.1": false, "::127.0.0.1": false, "::1": false, "::": false,
		"64:ff9b::7f00:1": false, "64:ff9b::10.0.0.1": false, "64:ff9b:1::c0a8:101": false,
		"2002:7f00:1::1": false, "2002:c0a8:0101::1": false, "2002:0a00:0001::": false,
		"2001:0:4136:e378:8000:63bf:80ff:fffe": false, // Teredo carrying 127.0.0.1, inverted
		"::ffff:192.168.1.1":                   false, "fd00::1": false, "fe80::1": false,
		"93.184.215.14": true, "64:ff9b::5db8:d70e": true, "2002:5db8:d70e::1": true, "2606:4700::1111": true,
	} {
		if got := publicAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("publicAddr(%s) = %v, want %v", addr, got, want)
		}
	}
}
