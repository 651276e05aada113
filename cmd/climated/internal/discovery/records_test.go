package discovery

import (
	"net"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

var testHub = Hub{Instance: "climated on pi", Host: "pi", Port: 8473, Path: "/mcp", Versions: []string{"2026-07-28", "2025-11-25"}, Auth: "bearer"}

func question(n string, t dnsmessage.Type) dnsmessage.Question {
	return dnsmessage.Question{Name: name(n), Type: t, Class: dnsmessage.ClassINET}
}

// TestAnswers: a browse for _mcp._tcp gets the instance and, beside it,
// its SRV, TXT and address; names are matched whatever their case; other
// names get nothing.
func TestAnswers(t *testing.T) {
	addrs := []net.IP{net.IPv4(192, 0, 2, 7)}
	ans, extra := testHub.answer(question("_MCP._tcp.local.", dnsmessage.TypePTR), addrs)
	if len(ans) != 1 || ans[0].Body.(*dnsmessage.PTRResource).PTR.String() != "climated on pi._mcp._tcp.local." {
		t.Fatalf("PTR answer %v", ans)
	}
	var txt *dnsmessage.TXTResource
	var srv *dnsmessage.SRVResource
	for _, rr := range extra {
		switch b := rr.Body.(type) {
		case *dnsmessage.TXTResource:
			txt = b
		case *dnsmessage.SRVResource:
			srv = b
		}
	}
	if srv == nil || srv.Port != 8473 || srv.Target.String() != "pi.local." || txt == nil {
		t.Fatalf("extra %v", extra)
	}
	if want := []string{"txtvers=1", "path=/mcp", "versions=2026-07-28,2025-11-25", "auth=bearer"}; !slices.Equal(txt.TXT, want) {
		t.Errorf("TXT %q, want %q", txt.TXT, want)
	}
	ans, _ = testHub.answer(question("Climated On Pi._mcp._tcp.local.", dnsmessage.TypeSRV), addrs)
	if len(ans) != 1 || ans[0].Header.Type != dnsmessage.TypeSRV {
		t.Errorf("SRV of the instance: %v", ans)
	}
	ans, _ = testHub.answer(question("pi.local.", dnsmessage.TypeA), addrs)
	if len(ans) != 1 || ans[0].Body.(*dnsmessage.AResource).A != [4]byte{192, 0, 2, 7} {
		t.Errorf("A of pi.local.: %v", ans)
	}
	for _, q := range []dnsmessage.Question{question("_ipp._tcp.local.", dnsmessage.TypePTR), question("other.local.", dnsmessage.TypeA), question("pi.local.", dnsmessage.TypeAAAA)} {
		if ans, extra := testHub.answer(q, addrs); ans != nil || extra != nil || (q.Type != dnsmessage.TypeAAAA && testHub.knowsAny([]dnsmessage.Question{q})) {
			t.Errorf("%s %s answered: %v %v", q.Name, q.Type, ans, extra)
		}
	}
}

// TestLongNames: a host name past a label's 63 bytes is cut, so that
// every answer still packs.
func TestLongNames(t *testing.T) {
	h := testHub
	h.Host = strings.Repeat("h", 70)
	h.Instance = "climated on " + h.Host
	resp, _ := h.reply(&dnsmessage.Message{}, []dnsmessage.Question{question(ServiceMCP+".local.", dnsmessage.TypePTR)}, false, []net.IP{net.IPv4(192, 0, 2, 7)})
	if _, err := pack(resp); err != nil {
		t.Fatal(err)
	}
}

// TestAvahiService: the service file names both services with the TXT
// record the responder sends.
func TestAvahiService(t *testing.T) {
	got := string(AvahiService(testHub))
	for _, want := range []string{"<name>climated on pi</name>", "<type>_mcp._tcp</type>", "<port>8473</port>",
		"<txt-record>versions=2026-07-28,2025-11-25</txt-record>", "<txt-record>auth=bearer</txt-record>", "<type>_http._tcp</type>", `SYSTEM "avahi-service.dtd"`} {
		if !strings.Contains(got, want) {
			t.Errorf("service file lacks %s:\n%s", want, got)
		}
	}
}
