package discovery

import (
	"net"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// packQuery is a query of qs on the wire.
func packQuery(t testing.TB, id uint16, qs ...dnsmessage.Question) []byte {
	t.Helper()
	m := dnsmessage.Message{Header: dnsmessage.Header{ID: id}, Questions: qs}
	b, err := m.Pack()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLegacyReply: a one-shot query from an ordinary resolver gets its
// id and question back, TTLs of at most ten seconds and no cache-flush
// bit, by unicast; an mDNS
// query (from port 5353) gets the records as they are, by multicast
// unless it set the QU bit.
func TestLegacyReply(t *testing.T) {
	addrs := []net.IP{net.IPv4(192, 0, 2, 7)}
	ptrQ := question("_mcp._tcp.local.", dnsmessage.TypePTR)
	q, qs := testHub.query(packQuery(t, 77, ptrQ))
	if q == nil {
		t.Fatal("a query for _mcp._tcp is not the hub's")
	}
	resp, unicast := testHub.reply(q, qs, true, addrs)
	if resp == nil || !unicast || resp.ID != 77 || len(resp.Questions) != 1 {
		t.Fatalf("legacy reply %v (unicast %v)", resp, unicast)
	}
	for _, rr := range append(resp.Answers, resp.Additionals...) {
		if rr.Header.TTL > ttlLegacy || rr.Header.Class != dnsmessage.ClassINET {
			t.Errorf("TTL %d, class %v in a legacy reply: %v", rr.Header.TTL, rr.Header.Class, rr)
		}
	}
	resp, unicast = testHub.reply(q, qs, false, addrs)
	if resp == nil || unicast || resp.ID != 0 || len(resp.Questions) != 0 || resp.Answers[0].Header.TTL != ttlOther {
		t.Errorf("mDNS reply %v (unicast %v)", resp, unicast)
	}
	ptrQ.Class |= cacheFlush
	q, qs = testHub.query(packQuery(t, 0, ptrQ))
	if _, unicast = testHub.reply(q, qs, false, addrs); !unicast {
		t.Error("the QU bit is not answered by unicast")
	}
}

// FuzzQuery: whatever a packet holds, the responder does not panic, and
// what it answers is a response of at most maxAnswer bytes; only a legacy
// reply, which echoes the questions, may be too long to send at all.
func FuzzQuery(f *testing.F) {
	f.Add(packQuery(f, 0, question("_mcp._tcp.local.", dnsmessage.TypePTR)))
	any := question("climated on pi._mcp._tcp.local.", dnsmessage.TypeALL)
	any.Class |= cacheFlush
	f.Add(packQuery(f, 1, question("_mcp._tcp.local.", dnsmessage.TypePTR), any, question("pi.local.", dnsmessage.TypeA), question(servicesEnum, dnsmessage.TypePTR)))
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
			if (err != nil && !legacy) || len(b) > maxAnswer || !resp.Response || len(resp.Answers) == 0 {
				t.Fatalf("answer of %d bytes: %v (%v)", len(b), err, resp)
			}
		}
	})
}
