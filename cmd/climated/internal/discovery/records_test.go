package discovery

import (
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/miekg/dns"
)

var testHub = Hub{Instance: "climated on pi.lab", Host: "pi", Port: 8473, Path: "/mcp", Versions: []string{"2026-07-28", "2025-11-25"}, Auth: "bearer"}

// TestAnswers: a browse for _mcp._tcp gets the instance and, beside it,
// its SRV, TXT and address; the instance's name is one label whatever
// it holds, asked for as a client spells it; other names get nothing.
func TestAnswers(t *testing.T) {
	addrs := []net.IP{net.IPv4(192, 0, 2, 7)}
	ans, extra := testHub.answer(dns.Question{Name: "_MCP._tcp.local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET}, addrs)
	if len(ans) != 1 || ans[0].(*dns.PTR).Ptr != `climated on pi\.lab._mcp._tcp.local.` {
		t.Fatalf("PTR answer %v", ans)
	}
	var txt *dns.TXT
	var srv *dns.SRV
	for _, rr := range extra {
		switch rr := rr.(type) {
		case *dns.TXT:
			txt = rr
		case *dns.SRV:
			srv = rr
		}
	}
	if srv == nil || srv.Port != 8473 || srv.Target != "pi.local." || txt == nil {
		t.Fatalf("extra %v", extra)
	}
	if want := []string{"txtvers=1", "path=/mcp", "versions=2026-07-28,2025-11-25", "auth=bearer"}; !slices.Equal(txt.Txt, want) {
		t.Errorf("TXT %q, want %q", txt.Txt, want)
	}
	// As miekg/dns (and so a peer) writes the received name.
	inst := `climated\ on\ pi\.lab._mcp._tcp.local.`
	ans, _ = testHub.answer(dns.Question{Name: inst, Qtype: dns.TypeSRV}, addrs)
	if len(ans) != 1 || ans[0].Header().Rrtype != dns.TypeSRV {
		t.Errorf("SRV of %s: %v", inst, ans)
	}
	ans, _ = testHub.answer(dns.Question{Name: "pi.local.", Qtype: dns.TypeA}, addrs)
	if len(ans) != 1 || !ans[0].(*dns.A).A.Equal(addrs[0]) {
		t.Errorf("A of pi.local.: %v", ans)
	}
	for _, q := range []dns.Question{{Name: "_ipp._tcp.local.", Qtype: dns.TypePTR}, {Name: "other.local.", Qtype: dns.TypeA}, {Name: "pi.local.", Qtype: dns.TypeAAAA}} {
		if ans, extra := testHub.answer(q, addrs); ans != nil || extra != nil || (q.Qtype != dns.TypeAAAA && testHub.knowsAny([]dns.Question{q})) {
			t.Errorf("%s %s answered: %v %v", q.Name, dns.TypeToString[q.Qtype], ans, extra)
		}
	}
}

// TestAvahiService: the service file names both services with the TXT
// record the responder sends.
func TestAvahiService(t *testing.T) {
	got := string(AvahiService(testHub))
	for _, want := range []string{"<name>climated on pi.lab</name>", "<type>_mcp._tcp</type>", "<port>8473</port>",
		"<txt-record>versions=2026-07-28,2025-11-25</txt-record>", "<txt-record>auth=bearer</txt-record>", "<type>_http._tcp</type>", `SYSTEM "avahi-service.dtd"`} {
		if !strings.Contains(got, want) {
			t.Errorf("service file lacks %s:\n%s", want, got)
		}
	}
}
