package discovery

import (
	"context"
	"net"
	"slices"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

	"github.com/climated/climated/internal/testutil"
)

// runResponder runs a responder for h until the test ends, or stop
// (which waits for it) is called.
func runResponder(t *testing.T, h Hub, opts *Options) (r *Responder, stop func()) {
	t.Helper()
	r, err := Listen(h, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return r, stop
}

// TestBrowseFindsHub: in a network namespace of its own, a browse for
// _mcp._tcp finds the responder's hub with its port, address and TXT.
func TestBrowseFindsHub(t *testing.T) {
	if !testutil.InNetns(t) {
		return
	}
	runResponder(t, testHub, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	found, err := Browse(ctx, ServiceMCP)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 {
		t.Fatalf("found %+v, want the one hub", found)
	}
	f := found[0]
	if f.Instance != testHub.Instance || f.Port != 8473 || f.Host != "pi.local." || len(f.Addrs) != 1 || !f.Addrs[0].Equal(net.IPv4(127, 0, 0, 1)) {
		t.Errorf("found %+v", f)
	}
	if f.TXT["path"] != "/mcp" || f.TXT["versions"] != "2026-07-28,2025-11-25" || f.TXT["auth"] != "bearer" {
		t.Errorf("TXT %v", f.TXT)
	}
	if u := f.URL(); u != "http://127.0.0.1:8473/mcp" {
		t.Errorf("URL %s", u)
	}
}

// TestQueryFloodStaysBounded: a flood of queries, the hub's and garbage,
// gets at most the burst and the rate's answers, each one packet of at
// most maxAnswer bytes; once it is over, the hub is found again.
func TestQueryFloodStaysBounded(t *testing.T) {
	if !testutil.InNetns(t) {
		return
	}
	const burst, perSecond = 5, 5
	r, _ := runResponder(t, testHub, &Options{Burst: burst, Rate: perSecond})
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	query := packQuery(t, 0, question("_mcp._tcp.local.", dnsmessage.TypePTR))
	big := slices.Repeat(query, MaxPacket/len(query)+2) // past MaxPacket: cut, then unparsable
	to := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: Port}
	start := time.Now()
	const n = 2000
	for i := range n {
		pkt := query
		switch i % 10 {
		case 3:
			pkt = big
		case 7:
			pkt = []byte("not DNS at all")
		}
		if _, err := c.WriteToUDP(pkt, to); err != nil {
			t.Fatal(err)
		}
	}
	// The kernel drops what the socket's buffer cannot hold: the flood is
	// over for the responder once its count stops rising.
	last := int64(-1)
	testutil.WaitFor(t, "the responder reads the flood", func() bool {
		time.Sleep(100 * time.Millisecond)
		p := r.Stats().Packets
		defer func() { last = p }()
		return p == last
	})
	elapsed := time.Since(start)
	st := r.Stats()
	if st.Packets < 50 {
		t.Fatalf("%+v: the responder read too few of the %d queries to tell", st, n)
	}
	if max := int64(burst + perSecond*elapsed.Seconds() + 1); st.Answered > max || st.Limited == 0 {
		t.Errorf("%+v after %d queries in %s: want at most %d answers and the rest limited", st, n, elapsed, max)
	}
	c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	buf := make([]byte, 2*MaxPacket)
	replies := 0
	for {
		m, _, err := c.ReadFromUDP(buf)
		if err != nil {
			break
		}
		replies++
		if m > maxAnswer {
			t.Errorf("a reply of %d bytes, past %d", m, maxAnswer)
		}
	}
	if replies == 0 || int64(replies) > st.Answered {
		t.Errorf("%d replies for %d answers", replies, st.Answered)
	}
	time.Sleep(time.Second / perSecond) // a token back
	found, err := Browse(context.Background(), ServiceMCP)
	if err != nil || len(found) != 1 {
		t.Errorf("after the flood: found %v, %v", found, err)
	}
}

// TestOffLinkQueriesDropped: a query whose source is not on the link it
// came in on is not answered (RFC 6762 §11); from the link it is. The
// link is the test's: loopback, then a network the query is not from.
func TestOffLinkQueriesDropped(t *testing.T) {
	if !testutil.InNetns(t) {
		return
	}
	_, doc, _ := net.ParseCIDR("192.0.2.0/24")
	_, lo, _ := net.ParseCIDR("127.0.0.0/8")
	for _, c := range []struct {
		link     *net.IPNet
		answered bool
	}{{lo, true}, {doc, false}} {
		r, stop := runResponder(t, testHub, &Options{Subnets: func(int) []*net.IPNet { return []*net.IPNet{c.link} }})
		conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.WriteToUDP(packQuery(t, 0, question("_mcp._tcp.local.", dnsmessage.TypePTR)), &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: Port}); err != nil {
			t.Fatal(err)
		}
		testutil.WaitFor(t, "the responder reads the query", func() bool { st := r.Stats(); return st.Answered+st.OffLink > 0 })
		st := r.Stats()
		if (st.Answered > 0) != c.answered || (st.OffLink > 0) == c.answered {
			t.Errorf("link %v, query from 127.0.0.1: %+v; want answered %v", c.link, st, c.answered)
		}
		conn.Close()
		stop()
	}
}

// TestOnLink: a source within one of the link's networks, IPv4
// link-local or unspecified is on it; any other is not.
func TestOnLink(t *testing.T) {
	_, lan, _ := net.ParseCIDR("192.168.1.0/24")
	for ip, want := range map[string]bool{"192.168.1.7": true, "169.254.3.4": true, "0.0.0.0": true, "192.168.2.7": false, "203.0.113.9": false, "127.0.0.1": false} {
		if got := onLink([]*net.IPNet{lan}, net.ParseIP(ip)); got != want {
			t.Errorf("onLink(%s) = %v, want %v", ip, got, want)
		}
	}
}
