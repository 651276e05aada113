package discovery

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/miekg/dns"
	"golang.org/x/net/ipv4"
)

// Bounds of a browse: what it keeps of the answers it reads.
const (
	// DefaultBrowse is how long Browse listens when ctx has no deadline.
	DefaultBrowse = 2 * time.Second
	maxFound      = 32  // instances kept
	maxRecords    = 256 // SRV, TXT and A records kept, together
	maxReads      = 1024
)

// Found is one instance a browse found.
type Found struct {
	Instance string            // "climated on pi"
	Host     string            // "pi.local."
	Port     int               //
	Addrs    []net.IP          // the host's IPv4 addresses, as answered
	TXT      map[string]string // key=value pairs of its TXT record
}

// URL is the instance's MCP endpoint: http://ADDRESS:PORT + its path
// (the first address answered, else the host name).
func (f Found) URL() string {
	host := strings.TrimSuffix(f.Host, ".")
	if len(f.Addrs) > 0 {
		host = f.Addrs[0].String()
	}
	path := f.TXT["path"]
	if path == "" {
		path = "/"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(f.Port)) + path
}

// Browse asks the LAN for instances of service (ServiceMCP) on every
// multicast interface, twice, and collects the answers until ctx ends
// (DefaultBrowse when it has no deadline). It keeps at most maxFound
// instances, sorted by name.
func Browse(ctx context.Context, service string) ([]Found, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultBrowse)
		defer cancel()
	}
	pc, err := net.ListenPacket("udp4", "0.0.0.0:0")
	if err != nil {
		return nil, fmt.Errorf("mDNS browse: %w", err)
	}
	defer pc.Close()
	conn := ipv4.NewPacketConn(pc)
	ifaces := multicastInterfaces()
	if len(ifaces) == 0 {
		return nil, errors.New("mDNS browse: no interface is up with multicast")
	}
	q := new(dns.Msg)
	q.SetQuestion(dns.Fqdn(service+"."+domain), dns.TypePTR)
	pkt, err := q.Pack()
	if err != nil {
		return nil, err
	}
	ask := func() {
		for _, ifi := range ifaces {
			_ = conn.SetMulticastInterface(&ifi)
			_, _ = conn.WriteTo(pkt, nil, Group)
		}
	}
	ask()
	again := time.AfterFunc(time.Second, ask) // one lost packet loses no hub
	defer again.Stop()
	go func() {
		<-ctx.Done()
		pc.SetReadDeadline(time.Now()) // ends the reads below
	}()
	c := newCollector(dns.Fqdn(service + "." + domain))
	buf := make([]byte, MaxPacket)
	for range maxReads {
		n, _, err := pc.ReadFrom(buf)
		if err != nil {
			break
		}
		var m dns.Msg
		if m.Unpack(buf[:n]) == nil && m.Response {
			c.add(slices.Concat(m.Answer, m.Ns, m.Extra))
		}
	}
	return c.found(), nil
}

func multicastInterfaces() []net.Interface {
	all, _ := net.Interfaces()
	var out []net.Interface
	for _, ifi := range all {
		if ifi.Flags&net.FlagUp != 0 && ifi.Flags&net.FlagMulticast != 0 {
			out = append(out, ifi)
		}
	}
	return out
}

// collector keeps the records of a browse's answers, bounded.
type collector struct {
	service   string
	instances []string // in the order they came
	srv       map[string]*dns.SRV
	txt       map[string][]string
	a         map[string][]net.IP
	records   int
}

func newCollector(service string) *collector {
	return &collector{service: wireKey(service), srv: map[string]*dns.SRV{}, txt: map[string][]string{}, a: map[string][]net.IP{}}
}

func (c *collector) add(rrs []dns.RR) {
	for _, rr := range rrs {
		if c.records >= maxRecords {
			return
		}
		name := wireKey(rr.Header().Name)
		switch rr := rr.(type) {
		case *dns.PTR:
			if name == c.service && len(c.instances) < maxFound && !slices.Contains(c.instances, rr.Ptr) && rr.Hdr.Ttl > 0 {
				c.instances = append(c.instances, rr.Ptr)
			}
		case *dns.SRV:
			c.srv[name], c.records = rr, c.records+1
		case *dns.TXT:
			c.txt[name], c.records = rr.Txt, c.records+1
		case *dns.A:
			if !slices.ContainsFunc(c.a[name], rr.A.Equal) {
				c.a[name], c.records = append(c.a[name], rr.A), c.records+1
			}
		}
	}
}

// found are the instances whose SRV record came, sorted by name.
func (c *collector) found() []Found {
	var out []Found
	for _, inst := range c.instances {
		key := wireKey(inst)
		srv, ok := c.srv[key]
		if !ok {
			continue
		}
		f := Found{Instance: instanceLabel(inst), Host: srv.Target, Port: int(srv.Port), Addrs: c.a[wireKey(srv.Target)], TXT: map[string]string{}}
		for _, kv := range c.txt[key] {
			k, v, _ := strings.Cut(kv, "=")
			f.TXT[strings.ToLower(k)] = v
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b Found) int { return strings.Compare(a.Instance, b.Instance) })
	return out
}

// instanceLabel is the first label of an instance's name, unescaped:
// "climated on pi" of "climated\ on\ pi._mcp._tcp.local.".
func instanceLabel(name string) string {
	labels := dns.SplitDomainName(name)
	if len(labels) == 0 {
		return name
	}
	var b strings.Builder
	l := labels[0]
	for i := 0; i < len(l); i++ {
		if l[i] == '\\' && i+1 < len(l) {
			i++
			if i+2 < len(l) && isDigit(l[i]) && isDigit(l[i+1]) && isDigit(l[i+2]) {
				n, _ := strconv.Atoi(l[i : i+3])
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(l[i])
	}
	return b.String()
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
