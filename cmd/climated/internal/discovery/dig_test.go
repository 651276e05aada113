package discovery

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/climated/climated/internal/testutil"
)

// TestDigReadsAnswers: BIND's dig, a DNS client this package did not
// write, asks the responder as an ordinary resolver does (a legacy
// unicast query, RFC 6762 §6.7) and reads the PTR, SRV, TXT and A records
// the browse reads, without the cache-flush bit a resolver would take
// for another class; a name not the hub's gets no answer. In a network
// namespace of its own.
func TestDigReadsAnswers(t *testing.T) {
	if !testutil.InNetns(t) {
		return
	}
	dig, err := exec.LookPath("dig")
	if err != nil {
		testutil.RequireInCI(t, "dig is missing (apt-get install bind9-dnsutils; scripts/test.sh does): %v", err)
	}
	runResponder(t, testHub, nil)
	inst := `climated\032on\032pi._mcp._tcp.local.`
	for _, c := range []struct{ name, typ, want string }{
		{"_mcp._tcp.local", "PTR", inst},
		{"_http._tcp.local", "PTR", `climated\032on\032pi._http._tcp.local.`},
		{"climated on pi._mcp._tcp.local", "SRV", "0 0 8473 pi.local."},
		{"climated on pi._mcp._tcp.local", "TXT", `"txtvers=1" "path=/mcp" "versions=2026-07-28,2025-11-25" "auth=bearer"`},
		{"pi.local", "A", "127.0.0.1"},
		{"_services._dns-sd._udp.local", "PTR", "_mcp._tcp.local.\n_http._tcp.local."},
	} {
		out, err := exec.Command(dig, "+short", "+tries=1", "+time=2", "-p", "5353", "@127.0.0.1", c.name, c.typ).CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != c.want {
			t.Errorf("dig %s %s: %v\n%s\nwant %s", c.name, c.typ, err, got, c.want)
		}
	}
	// No answer: dig times out, and says so.
	if out, _ := exec.Command(dig, "+short", "+tries=1", "+time=1", "-p", "5353", "@127.0.0.1", "other.local", "A").Output(); !strings.Contains(string(out), "timed out") {
		t.Errorf("dig other.local A answered: %s", out)
	}
}
