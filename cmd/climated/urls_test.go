package main

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/httpserve"
)

// A hub listening on every address logs a URL that works on this machine
// (not http://0.0.0.0:…), and the machine's network addresses beside it.
func TestServeOnEveryAddressLogsUsableURLs(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "climated.yaml")
	os.WriteFile(conf, []byte("discovery: false # no multicast onto the machine's own network\n"), 0o600)
	p := startServed(t, "serve", "--config", conf, "--listen", "0.0.0.0:0", "--db", dir+"/climated.db")
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
	want := httpserve.NetworkURLs(&listener, addrs)
	m := regexp.MustCompile(`msg="serving MCP" .* network="?([^"\n]+)"?`).FindStringSubmatch(p.logged())
	switch {
	case len(want) == 0 && m != nil:
		t.Errorf("network URLs %q on a machine with no network address", m[1])
	case len(want) > 0 && (m == nil || m[1] != strings.Join(want, "/mcp ")+"/mcp"):
		t.Errorf("the log gives network URLs %q, want %q/mcp:\n%s", m, want, p.logged())
	}
}
