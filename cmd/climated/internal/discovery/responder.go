package discovery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/net/dns/dnsmessage"
	"golang.org/x/net/ipv4"
	"golang.org/x/sys/unix"
	"golang.org/x/time/rate"
)

// Bounds of the responder.
const (
	// Port is the mDNS port.
	Port = 5353
	// MaxPacket is the largest packet read (RFC 6762 §17); a longer one
	// is cut there and fails to parse.
	MaxPacket = 9000
	// maxAnswer keeps an answer in one unfragmented Ethernet packet; the
	// extra records go first when it would not fit.
	maxAnswer = 1400
	// maxQuestions is the most questions of one query looked at.
	maxQuestions = 16
	// DefaultRate and DefaultBurst bound the answers: a burst of 20, then
	// 10 a second, whoever asks (a LAN of a few dozen devices asks a few
	// times a minute).
	DefaultRate  = rate.Limit(10)
	DefaultBurst = 20
)

// Group is the IPv4 mDNS group and port.
var Group = &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: Port}

// Options tune a Responder; nil means the defaults.
type Options struct {
	Rate   rate.Limit // answers a second after the burst; 0: DefaultRate
	Burst  int        // 0: DefaultBurst
	Logger *slog.Logger
	// Subnets are the networks on the link of interface idx, from which
	// queries are answered (RFC 6762 §11); nil: the interface's own
	// addresses' networks. Tests give other links.
	Subnets func(idx int) []*net.IPNet
}

// Stats count what a Responder saw and did.
type Stats struct {
	Packets  int64 // packets read
	Answered int64 // answers sent
	Limited  int64 // queries it would have answered, refused by the rate limit
	OffLink  int64 // queries from a source not on the link they came in on, dropped
}

// Responder answers mDNS queries for one Hub's records, on every
// interface that is up and does multicast.
type Responder struct {
	hub     Hub
	conn    *ipv4.PacketConn
	ifaces  []net.Interface
	limit   *rate.Limiter
	log     *slog.Logger
	subnets func(idx int) []*net.IPNet

	packets, answered, limited, offLink atomic.Int64
	closeOnce                           sync.Once
}

// Listen opens the mDNS port (shared with any other responder of the
// host) and joins the group on every multicast interface.
func Listen(h Hub, opts *Options) (*Responder, error) {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.Rate <= 0 {
		o.Rate = DefaultRate
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	lc := net.ListenConfig{Control: reusePort}
	pc, err := lc.ListenPacket(context.Background(), "udp4", fmt.Sprintf("0.0.0.0:%d", Port))
	if err != nil {
		return nil, fmt.Errorf("mDNS: listen on port %d: %w", Port, err)
	}
	if o.Subnets == nil {
		o.Subnets = interfaceSubnets
	}
	r := &Responder{hub: h, conn: ipv4.NewPacketConn(pc), limit: rate.NewLimiter(o.Rate, o.Burst), log: o.Logger, subnets: o.Subnets}
	if err := r.join(); err != nil {
		pc.Close()
		return nil, err
	}
	return r, nil
}

// reusePort lets the socket share port 5353 with other responders (Avahi,
// a browser's own), as every mDNS implementation does.
func reusePort(_, _ string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = errors.Join(unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEADDR, 1),
			unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1))
	})
	return errors.Join(err, serr)
}

// join joins the group on the interfaces that can take it.
func (r *Responder) join() error {
	all, err := net.Interfaces()
	if err != nil {
		return fmt.Errorf("mDNS: list interfaces: %w", err)
	}
	for _, ifi := range all {
		if ifi.Flags&net.FlagUp == 0 || ifi.Flags&net.FlagMulticast == 0 {
			continue
		}
		if err := r.conn.JoinGroup(&ifi, Group); err != nil {
			r.log.Debug("mDNS: cannot join the group", "interface", ifi.Name, "err", err)
			continue
		}
		r.ifaces = append(r.ifaces, ifi)
	}
	if len(r.ifaces) == 0 {
		return errors.New("mDNS: no interface is up with multicast")
	}
	_ = r.conn.SetMulticastTTL(255) // RFC 6762 §11
	if err := r.conn.SetControlMessage(ipv4.FlagInterface, true); err != nil {
		return fmt.Errorf("mDNS: ask for the receiving interface: %w", err)
	}
	return nil
}

// Stats are the counts so far.
func (r *Responder) Stats() Stats {
	return Stats{Packets: r.packets.Load(), Answered: r.answered.Load(), Limited: r.limited.Load(), OffLink: r.offLink.Load()}
}

// Run announces the hub, answers queries until ctx ends, then says
// goodbye (the records with TTL 0) and closes the socket.
func (r *Responder) Run(ctx context.Context) error {
	names := make([]string, len(r.ifaces))
	for i, ifi := range r.ifaces {
		names[i] = ifi.Name
	}
	r.log.Info("announcing the hub on the LAN (mDNS)", "instance", r.hub.Instance, "host", r.hub.Host+".local", "port", r.hub.portString(), "interfaces", strings.Join(names, ","))
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.serve()
	}()
	// RFC 6762 §8.3: at least two announcements, one second apart.
	r.announce(false)
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
		r.announce(false)
		<-ctx.Done()
	}
	r.announce(true)
	r.close()
	<-done
	return nil
}

func (r *Responder) close() { r.closeOnce.Do(func() { r.conn.Close() }) }

// serve reads queries until the socket closes.
func (r *Responder) serve() {
	buf := make([]byte, MaxPacket)
	for {
		n, cm, src, err := r.conn.ReadFrom(buf)
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				r.log.Warn("mDNS: read", "err", err)
			}
			return
		}
		r.packets.Add(1)
		udp, ok := src.(*net.UDPAddr)
		if !ok || cm == nil {
			continue
		}
		r.handle(buf[:n], cm.IfIndex, udp)
	}
}

// handle answers one packet when it is a query for the hub's records and
// the rate limit allows.
func (r *Responder) handle(pkt []byte, ifIndex int, src *net.UDPAddr) {
	q, qs := r.hub.query(pkt)
	if q == nil {
		return
	}
	// RFC 6762 §11: a query from off the link (a unicast one routed in
	// from elsewhere, to learn about the house) is not answered.
	if !onLink(r.subnets(ifIndex), src.IP) {
		r.offLink.Add(1)
		return
	}
	if !r.limit.Allow() {
		r.limited.Add(1)
		return
	}
	resp, unicast := r.hub.reply(q, qs, src.Port != Port, r.addrs(ifIndex))
	if resp == nil {
		return
	}
	dst := Group
	if unicast {
		dst = src
	}
	if r.send(resp, ifIndex, dst) {
		r.answered.Add(1)
	}
}

// addrs are the addresses to announce on the interface of index idx.
func (r *Responder) addrs(idx int) []net.IP {
	if r.hub.IP != nil {
		return []net.IP{r.hub.IP}
	}
	return interfaceIPv4(idx)
}

// onLink reports whether ip is on a link of subnets: within one of them,
// IPv4 link-local (169.254/16), which is on every link, or unspecified
// (0.0.0.0: a host without an address yet, which no router forwards).
func onLink(subnets []*net.IPNet, ip net.IP) bool {
	if ip.IsLinkLocalUnicast() || ip.IsUnspecified() {
		return true
	}
	for _, n := range subnets {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// interfaceSubnets are the networks of interface idx's addresses.
func interfaceSubnets(idx int) []*net.IPNet {
	ifi, err := net.InterfaceByIndex(idx)
	if err != nil {
		return nil
	}
	as, err := ifi.Addrs()
	if err != nil {
		return nil
	}
	var out []*net.IPNet
	for _, a := range as {
		if in, ok := a.(*net.IPNet); ok {
			out = append(out, in)
		}
	}
	return out
}

// interfaceIPv4 are interface idx's IPv4 addresses.
func interfaceIPv4(idx int) []net.IP {
	var out []net.IP
	for _, n := range interfaceSubnets(idx) {
		if v4 := n.IP.To4(); v4 != nil {
			out = append(out, v4)
		}
	}
	return out
}

// announce multicasts every record on every interface; goodbye with TTL
// 0, which tells caches to forget them (RFC 6762 §10.1).
func (r *Responder) announce(goodbye bool) {
	n := r.hub.names()
	for _, ifi := range r.ifaces {
		addrs := r.addrs(ifi.Index)
		var all []dnsmessage.Resource
		for _, typ := range []string{n.mcpType, n.httpType} {
			ans, extra := r.hub.answer(dnsmessage.Question{Name: name(typ), Type: dnsmessage.TypePTR, Class: dnsmessage.ClassINET}, addrs)
			all = append(append(all, ans...), extra...)
		}
		resp := &dnsmessage.Message{Header: dnsmessage.Header{Response: true, Authoritative: true}, Answers: dedupe(all)}
		if goodbye {
			capTTL(resp, 0)
		}
		r.send(resp, ifi.Index, Group)
	}
}

// send writes m to dst out of interface idx.
func (r *Responder) send(m *dnsmessage.Message, idx int, dst *net.UDPAddr) bool {
	b, err := pack(m)
	if err != nil {
		r.log.Warn("mDNS: answer not sent", "err", err)
		return false
	}
	if _, err := r.conn.WriteTo(b, &ipv4.ControlMessage{IfIndex: idx}, dst); err != nil {
		r.log.Debug("mDNS: send", "to", dst, "err", err)
		return false
	}
	return true
}
