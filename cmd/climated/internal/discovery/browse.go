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

	"golang.org/x/net/dns/dnsmessage"
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
	svc, err := dnsmessage.NewName(service + "." + domain)
	if err != nil {
		return nil, fmt.Errorf("mDNS browse: %w", err)
	}
	q := dnsmessage.Message{Header: dnsmessage.Header{ID: uint16(time.Now().UnixNano())},
		Questions: []dnsmessage.Question{{Name: svc, Type: dnsmessage.TypePTR, Class: dnsmessage.ClassINET}}}
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
	c := newCollector(svc.String())
	buf := make([]byte, MaxPacket)
	for range maxReads {
		n, _, err := pc.ReadFrom(buf)
		if err != nil {
			break
		}
		var m dnsmessage.Message
		if m.Unpack(buf[:n]) == nil && m.Response {
			c.add(slices.Concat(m.Answers, m.Authorities, m.Additionals))
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

// collector keeps the records of a browse's answers, bounded. Names are
// kept in lower case: DNS compares them so.
type collector struct {
	service   string
	instances []string // as named, in the order they came
	srv       map[string]*dnsmessage.SRVResource
	txt       map[string][]string
	a         map[string][]net.IP
	records   int
}

func newCollector(service string) *collector {
	return &collector{service: strings.ToLower(service), srv: map[string]*dnsmessage.SRVResource{}, txt: map[string][]string{}, a: map[string][]net.IP{}}
}

func (c *collector) add(rrs []dnsmessage.Resource) {
	for _, rr := range rrs {
		if c.records >= maxRecords {
			return
		}
		key := strings.ToLower(rr.Header.Name.String())
		switch b := rr.Body.(type) {
		case *dnsmessage.PTRResource:
			inst := b.PTR.String()
			if key == c.service && len(c.instances) < maxFound && !slices.ContainsFunc(c.instances, func(s string) bool { return strings.EqualFold(s, inst) }) && rr.Header.TTL > 0 {
				c.instances = append(c.instances, inst)
			}
		case *dnsmessage.SRVResource:
			c.srv[key], c.records = b, c.records+1
		case *dnsmessage.TXTResource:
			c.txt[key], c.records = b.TXT, c.records+1
		case *dnsmessage.AResource:
			if ip := net.IP(b.A[:]); !slices.ContainsFunc(c.a[key], ip.Equal) {
				c.a[key], c.records = append(c.a[key], ip), c.records+1
			}
		}
	}
}

// found are the instances whose SRV record came, sorted by name.
func (c *collector) found() []Found {
	var out []Found
	for _, inst := range c.instances {
		key := strings.ToLower(inst)
		srv, ok := c.srv[key]
		if !ok {
			continue
		}
		target := srv.Target.String()
		f := Found{Instance: instanceLabel(inst, c.service), Host: target, Port: int(srv.Port), Addrs: c.a[strings.ToLower(target)], TXT: map[string]string{}}
		for _, kv := range c.txt[key] {
			k, v, _ := strings.Cut(kv, "=")
			f.TXT[strings.ToLower(k)] = v
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b Found) int { return strings.Compare(a.Instance, b.Instance) })
	return out
}

// instanceLabel is the instance's own label: its name without the
// service's ("climated on pi" of "climated on pi._mcp._tcp.local.").
func instanceLabel(inst, service string) string {
	if strings.HasSuffix(strings.ToLower(inst), "."+service) {
		return inst[:len(inst)-len(service)-1]
	}
	first, _, _ := strings.Cut(inst, ".")
	return first
}
