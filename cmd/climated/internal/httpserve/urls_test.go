package httpserve

import (
	"net"
	"slices"
	"testing"
)

func TestServedURLs(t *testing.T) {
	ipnet := func(s string) net.Addr {
		ip, n, err := net.ParseCIDR(s)
		if err != nil {
			t.Fatal(err)
		}
		n.IP = ip
		return n
	}
	// This machine's kind of interfaces: loopback, one LAN address of each
	// family, a link-local one.
	addrs := []net.Addr{ipnet("127.0.0.1/8"), ipnet("::1/128"), ipnet("fd00::2/64"), ipnet("192.0.2.2/24"), ipnet("fe80::fc:ff:fe00:1/64"), ipnet("169.254.3.4/16")}
	for _, c := range []struct {
		listen   string
		base     string
		networks []string
	}{
		{"127.0.0.1:8473", "http://127.0.0.1:8473", nil},
		{"192.0.2.2:8473", "http://192.0.2.2:8473", nil},
		{"0.0.0.0:8473", "http://127.0.0.1:8473", []string{"http://192.0.2.2:8473"}},
		{"[::]:8473", "http://127.0.0.1:8473", []string{"http://192.0.2.2:8473", "http://[fd00::2]:8473"}},
	} {
		addr, err := net.ResolveTCPAddr("tcp", c.listen)
		if err != nil {
			t.Fatal(err)
		}
		if got := BaseURL(addr); got != c.base {
			t.Errorf("%s: base %s, want %s", c.listen, got, c.base)
		}
		if got := NetworkURLs(addr, addrs); !slices.Equal(got, c.networks) {
			t.Errorf("%s: network %q, want %q", c.listen, got, c.networks)
		}
	}
	many := slices.Repeat([]net.Addr{ipnet("192.0.2.2/24")}, 9)
	if got := NetworkURLs(&net.TCPAddr{IP: net.IPv4zero, Port: 1}, many); len(got) != maxNetworkURLs {
		t.Errorf("%d network URLs, want at most %d", len(got), maxNetworkURLs)
	}
}
