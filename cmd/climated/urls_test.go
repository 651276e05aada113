package main

import (
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
		if got := servedBase(addr); got != c.base {
			t.Errorf("%s: base %s, want %s", c.listen, got, c.base)
		}
		if got := networkBases(addr, addrs); !slices.Equal(got, c.networks) {
			t.Errorf("%s: network %q, want %q", c.listen, got, c.networks)
		}
	}
	many := slices.Repeat([]net.Addr{ipnet("192.0.2.2/24")}, 9)
	if got := networkBases(&net.TCPAddr{IP: net.IPv4zero, Port: 1}, many); len(got) != maxNetworkURLs {
		t.Errorf("%d network URLs, want at most %d", len(got), maxNetworkURLs)
	}
}

// A hub listening on every address logs a URL that works on this machine
// (not http://0.0.0.0:…), and the machine's network addresses beside it.
func TestServeOnEveryAddressLogsUsableURLs(t *testing.T) {
	dir := t.TempDir()
	p := startServed(t, "serve", "--listen", "0.0.0.0:0", "--db", dir+"/climated.db")
	defer p.stop(t)
	if !strings.HasPrefix(p.base, "http://127.0.0.1:") {
		t.Fatalf("streamable_http on %s, want loopback", p.base)
	}
	resp, err := http.Get(p.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	addrs, _ := net.InterfaceAddrs()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(p.base, "http://"))
	// Go listens on "0.0.0.0" with a socket that takes IPv6 too, where it
	// can, and says [::]: the hub's listener is of the same kind as this one.
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	listener := *ln.Addr().(*net.TCPAddr)
	listener.Port, _ = strconv.Atoi(port)
	want := networkBases(&listener, addrs)
	m := regexp.MustCompile(`msg="serving MCP" .* network="?([^"\n]+)"?`).FindStringSubmatch(p.logged())
	switch {
	case len(want) == 0 && m != nil:
		t.Errorf("network URLs %q on a machine with no network address", m[1])
	case len(want) > 0 && (m == nil || m[1] != strings.Join(want, "/mcp ")+"/mcp"):
		t.Errorf("the log gives network URLs %q, want %q/mcp:\n%s", m, want, p.logged())
	}
}
