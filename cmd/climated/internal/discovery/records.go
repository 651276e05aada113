package discovery

import (
	"net"
	"strconv"
	"strings"

	"github.com/miekg/dns"
)

// The DNS-SD names this package answers for.
const (
	ServiceMCP  = "_mcp._tcp"
	ServiceHTTP = "_http._tcp"
	domain      = "local."
	// servicesEnum lists the service types of a host (RFC 6763 §9).
	servicesEnum = "_services._dns-sd._udp.local."
	// ttlHost and ttlOther are RFC 6762 §10's recommended TTLs: 120 s for
	// records that name a host, 75 minutes for the others.
	ttlHost  = 120
	ttlOther = 4500
	// ttlLegacy caps the TTLs of an answer to a legacy unicast query
	// (RFC 6762 §6.7).
	ttlLegacy = 10
)

// Hub is what the responder announces of one hub.
type Hub struct {
	// Instance is the DNS-SD instance name people see ("climated on
	// pi"); Host is the machine's name without ".local".
	Instance, Host string
	Port           int
	// IP is the one address the hub listens on, nil when it listens on
	// every address: then each answer carries the IPv4 addresses of the
	// interface its query came in on.
	IP net.IP
	// Path is the MCP endpoint's path, Versions the MCP protocol
	// versions it serves, Auth how a client signs in: "bearer" (the
	// hub's token), "oauth" (OAuth 2.1, public_url set) or "none".
	Path     string
	Versions []string
	Auth     string
}

// TXT is the TXT record of the hub's _mcp._tcp service: each string at
// most 255 bytes, keys of at most nine letters (RFC 6763 §6).
func (h Hub) TXT() []string {
	return []string{"txtvers=1", "path=" + h.Path, "versions=" + strings.Join(h.Versions, ","), "auth=" + h.Auth}
}

// httpTXT is the TXT record of the dashboard's _http._tcp service.
func httpTXT() []string { return []string{"path=/"} }

// names are the fully qualified names of one hub's records.
type names struct {
	host, mcpType, httpType, mcpInst, httpInst string
}

func (h Hub) names() names {
	inst := escapeInstance(h.Instance)
	return names{
		host:     dns.Fqdn(h.Host + "." + domain),
		mcpType:  ServiceMCP + "." + domain,
		httpType: ServiceHTTP + "." + domain,
		mcpInst:  inst + "." + ServiceMCP + "." + domain,
		httpInst: inst + "." + ServiceHTTP + "." + domain,
	}
}

// escapeInstance escapes the dots and backslashes of an instance name,
// which is one DNS label whatever it holds.
func escapeInstance(s string) string {
	return strings.NewReplacer(`\`, `\\`, `.`, `\.`).Replace(s)
}

// answer is the response to one question, nil when the hub has no record
// that answers it: the records asked for in Answer, and in Extra those a
// client will ask for next (RFC 6763 §12). addrs are the addresses for the
// host's A records.
func (h Hub) answer(q dns.Question, addrs []net.IP) (ans, extra []dns.RR) {
	n := h.names()
	name := wireKey(q.Name)
	ptr := func(typ, inst string) dns.RR {
		return &dns.PTR{Hdr: hdr(typ, dns.TypePTR, ttlOther, false), Ptr: inst}
	}
	switch {
	case name == wireKey(servicesEnum) && matches(q, dns.TypePTR):
		return []dns.RR{ptr(servicesEnum, n.mcpType), ptr(servicesEnum, n.httpType)}, nil
	case name == wireKey(n.mcpType) && matches(q, dns.TypePTR):
		return []dns.RR{ptr(n.mcpType, n.mcpInst)}, h.instance(n, n.mcpInst, h.TXT(), addrs)
	case name == wireKey(n.httpType) && matches(q, dns.TypePTR):
		return []dns.RR{ptr(n.httpType, n.httpInst)}, h.instance(n, n.httpInst, httpTXT(), addrs)
	case name == wireKey(n.mcpInst):
		return only(q, h.instance(n, n.mcpInst, h.TXT(), addrs))
	case name == wireKey(n.httpInst):
		return only(q, h.instance(n, n.httpInst, httpTXT(), addrs))
	case name == wireKey(n.host):
		return only(q, hostRecords(n.host, addrs))
	}
	return nil, nil
}

// instance is the SRV and TXT records of an instance and the A records of
// the host its SRV names.
func (h Hub) instance(n names, inst string, txt []string, addrs []net.IP) []dns.RR {
	rrs := []dns.RR{
		&dns.SRV{Hdr: hdr(inst, dns.TypeSRV, ttlHost, true), Port: uint16(h.Port), Target: n.host},
		&dns.TXT{Hdr: hdr(inst, dns.TypeTXT, ttlOther, true), Txt: txt},
	}
	return append(rrs, hostRecords(n.host, addrs)...)
}

func hostRecords(host string, addrs []net.IP) []dns.RR {
	var rrs []dns.RR
	for _, ip := range addrs {
		if v4 := ip.To4(); v4 != nil {
			rrs = append(rrs, &dns.A{Hdr: hdr(host, dns.TypeA, ttlHost, true), A: v4})
		}
	}
	return rrs
}

// only splits rrs into those of the question's type (every one for ANY)
// as the answer, and the others as extra.
func only(q dns.Question, rrs []dns.RR) (ans, extra []dns.RR) {
	for _, rr := range rrs {
		if matches(q, rr.Header().Rrtype) && wireKey(rr.Header().Name) == wireKey(q.Name) {
			ans = append(ans, rr)
		} else {
			extra = append(extra, rr)
		}
	}
	if len(ans) == 0 {
		return nil, nil
	}
	return ans, extra
}

func matches(q dns.Question, t uint16) bool { return q.Qtype == t || q.Qtype == dns.TypeANY }

// hdr is a record's header in class IN; unique records carry the
// cache-flush bit (RFC 6762 §10.2), shared ones (PTR) do not.
func hdr(name string, typ uint16, ttl uint32, unique bool) dns.RR_Header {
	class := uint16(dns.ClassINET)
	if unique {
		class |= 1 << 15
	}
	return dns.RR_Header{Name: name, Rrtype: typ, Class: class, Ttl: ttl}
}

// portString is the port for log lines.
func (h Hub) portString() string { return strconv.Itoa(h.Port) }

// knowsAny reports whether any question names one of the hub's records,
// before any work is spent on an answer.
func (h Hub) knowsAny(qs []dns.Question) bool {
	n := h.names()
	for _, q := range qs {
		switch wireKey(q.Name) {
		case wireKey(servicesEnum), wireKey(n.mcpType), wireKey(n.httpType), wireKey(n.mcpInst), wireKey(n.httpInst), wireKey(n.host):
			return true
		}
	}
	return false
}

// wireKey is a name as it goes on the wire, in lower case, so that two
// spellings of one name compare equal ("climated on pi" and
// "climated\ on\ pi", as miekg/dns writes a received one); "" for a name
// that is not one.
func wireKey(name string) string {
	var buf [256]byte
	off, err := dns.PackDomainName(dns.Fqdn(name), buf[:], 0, nil, false)
	if err != nil {
		return ""
	}
	b := buf[:off]
	for i, c := range b { // ASCII only: DNS compares names so (RFC 4343)
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
