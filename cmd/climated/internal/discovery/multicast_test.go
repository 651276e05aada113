package discovery

import (
	"context"
	"net"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
	"golang.org/x/net/ipv4"

	"github.com/climated/climated/internal/testutil"
)

// peer is another mDNS responder's socket on the same host and port, as
// avahi-daemon's would be: it hears the group.
func peer(t *testing.T) *net.UDPConn {
	t.Helper()
	lc := net.ListenConfig{Control: reusePort}
	pc, err := lc.ListenPacket(context.Background(), "udp4", "0.0.0.0:5353")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Fatal(err)
	}
	if err := ipv4.NewPacketConn(pc).JoinGroup(lo, Group); err != nil {
		t.Fatal(err)
	}
	return pc.(*net.UDPConn)
}

// nextResponse is the next response the peer hears whose first answer
// is of name (skipping its own queries), within two seconds.
func nextResponse(t *testing.T, c *net.UDPConn, name string) (dnsmessage.Message, *net.UDPAddr) {
	t.Helper()
	buf := make([]byte, MaxPacket)
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	for {
		n, from, err := c.ReadFromUDP(buf)
		if err != nil {
			t.Fatalf("no response with %s: %v", name, err)
		}
		var m dnsmessage.Message
		if m.Unpack(buf[:n]) != nil || !m.Response {
			continue
		}
		if len(m.Answers) > 0 && m.Answers[0].Header.Name.String() == name {
			return m, from
		}
	}
}

// TestMulticastAnnounceAnswerGoodbye: on the group, as mDNS peers hear
// it, the responder announces the hub when it starts, answers a query
// from port 5353 to the group (the records with their cache-flush bits),
// and says goodbye with TTL 0 when it stops.
func TestMulticastAnnounceAnswerGoodbye(t *testing.T) {
	if !testutil.InNetns(t) {
		return
	}
	c := peer(t)
	_, stop := runResponder(t, testHub, nil)

	if m, _ := nextResponse(t, c, "_mcp._tcp.local."); m.Answers[0].Header.TTL != ttlOther {
		t.Errorf("announcement %v", m)
	}
	q := dnsmessage.Message{Questions: []dnsmessage.Question{question("climated on pi._mcp._tcp.local.", dnsmessage.TypeSRV)}}
	pkt, _ := q.Pack()
	if _, err := c.WriteToUDP(pkt, Group); err != nil {
		t.Fatal(err)
	}
	m, _ := nextResponse(t, c, "climated on pi._mcp._tcp.local.")
	srv := m.Answers[0]
	if srv.Header.Type != dnsmessage.TypeSRV || srv.Header.Class != dnsmessage.ClassINET|cacheFlush || len(m.Questions) != 0 {
		t.Errorf("answer to the group %v", m)
	}
	stop()
	if m, _ := nextResponse(t, c, "_mcp._tcp.local."); m.Answers[0].Header.TTL != 0 {
		t.Errorf("goodbye %v", m)
	}
}
