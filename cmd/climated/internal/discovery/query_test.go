package discovery

import (
	"net"
	"testing"

	"github.com/miekg/dns"
)

// TestLegacyReply: a one-shot query from an ordinary resolver gets its
// id and question back, TTLs of at most ten seconds, by unicast; an mDNS
// query (from port 5353) gets the records as they are, by multicast
// unless it set the QU bit.
func TestLegacyReply(t *testing.T) {
	addrs := []net.IP{net.IPv4(192, 0, 2, 7)}
	m := new(dns.Msg)
	m.SetQuestion("_mcp._tcp.local.", dns.TypePTR)
	pkt, _ := m.Pack()
	q, qs := testHub.query(pkt)
	if q == nil {
		t.Fatal("a query for _mcp._tcp is not the hub's")
	}
	resp, unicast := testHub.reply(q, qs, true, addrs)
	if resp == nil || !unicast || resp.Id != m.Id || len(resp.Question) != 1 {
		t.Fatalf("legacy reply %v (unicast %v)", resp, unicast)
	}
	for _, rr := range append(resp.Answer, resp.Extra...) {
		if rr.Header().Ttl > ttlLegacy {
			t.Errorf("TTL %d in a legacy reply: %v", rr.Header().Ttl, rr)
		}
	}
	resp, unicast = testHub.reply(q, qs, false, addrs)
	if resp == nil || unicast || resp.Id != 0 || len(resp.Question) != 0 || resp.Answer[0].Header().Ttl != ttlOther {
		t.Errorf("mDNS reply %v (unicast %v)", resp, unicast)
	}
	m.Question[0].Qclass |= 1 << 15
	pkt, _ = m.Pack()
	q, qs = testHub.query(pkt)
	if _, unicast = testHub.reply(q, qs, false, addrs); !unicast {
		t.Error("the QU bit is not answered by unicast")
	}
}

// FuzzQuery: whatever a packet holds, the responder does not panic, and
// what it answers is a response of at most maxAnswer bytes; only a legacy
// reply, which echoes the questions, may be too long to send at all.
func FuzzQuery(f *testing.F) {
	m := new(dns.Msg)
	m.SetQuestion("_mcp._tcp.local.", dns.TypePTR)
	pkt, _ := m.Pack()
	f.Add(pkt)
	m.Question = append(m.Question, dns.Question{Name: `climated\ on\ pi\.lab._mcp._tcp.local.`, Qtype: dns.TypeANY, Qclass: dns.ClassINET | 1<<15},
		dns.Question{Name: "pi.local.", Qtype: dns.TypeA, Qclass: dns.ClassINET}, dns.Question{Name: servicesEnum, Qtype: dns.TypePTR})
	pkt, _ = m.Pack()
	f.Add(pkt)
	f.Add([]byte("not DNS"))
	addrs := []net.IP{net.IPv4(192, 0, 2, 7), net.IPv4(198, 51, 100, 1)}
	f.Fuzz(func(t *testing.T, pkt []byte) {
		q, qs := testHub.query(pkt)
		if q == nil {
			return
		}
		for _, legacy := range []bool{false, true} {
			resp, _ := testHub.reply(q, qs, legacy, addrs)
			if resp == nil {
				continue
			}
			b, err := pack(resp)
			if (err != nil && !legacy) || len(b) > maxAnswer || !resp.Response || len(resp.Answer) == 0 {
				t.Fatalf("answer of %d bytes: %v (%v)", len(b), err, resp)
			}
		}
	})
}
