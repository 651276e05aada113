package discovery

import (
	"net"
	"strconv"
	"strings"

	"golang.org/x/net/dns/dnsmessage"
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
	// cacheFlush is the class's top bit in a unique record (RFC 6762
	// §10.2); in a question it is the QU bit (§5.4).
	cacheFlush = 1 << 15
)

// Hub is what the responder announces of one hub.
type Hub struct {
	// Instance is the DNS-SD instance name people see ("climated on
	// pi"), without dots; Host is the machine's name without ".local",
	// one label.
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
	inst := label(strings.ReplaceAll(h.Instance, ".", " "))
	return names{
		host:     label(h.Host) + "." + domain,
		mcpType:  ServiceMCP + "." + domain,
		httpType: ServiceHTTP + "." + domain,
		mcpInst:  inst + "." + ServiceMCP + "." + domain,
		httpInst: inst + "." + ServiceHTTP + "." + domain,
	}
}

// answer is the response to one question, nil when the hub has no record
// that answers it: the records asked for in ans, and in extra those a
// client will ask for next (RFC 6763 §12). addrs are the addresses for the
// host's A records.
func (h Hub) answer(q dnsmessage.Question, addrs []net.IP) (ans, extra []dnsmessage.Resource) {
	n := h.names()
	name := q.Name.String()
	is := func(s string) bool { return strings.EqualFold(name, s) }
	switch {
	case is(servicesEnum) && matches(q, dnsmessage.TypePTR):
		return []dnsmessage.Resource{ptr(servicesEnum, n.mcpType), ptr(servicesEnum, n.httpType)}, nil
	case is(n.mcpType) && matches(q, dnsmessage.TypePTR):
		return []dnsmessage.Resource{ptr(n.mcpType, n.mcpInst)}, h.instance(n, n.mcpInst, h.TXT(), addrs)
	case is(n.httpType) && matches(q, dnsmessage.TypePTR):
		return []dnsmessage.Resource{ptr(n.httpType, n.httpInst)}, h.instance(n, n.httpInst, httpTXT(), addrs)
	case is(n.mcpInst):
		return only(q, h.instance(n, n.mcpInst, h.TXT(), addrs))
	case is(n.httpInst):
		return only(q, h.instance(n, n.httpInst, httpTXT(), addrs))
	case is(n.host):
		return only(q, hostRecords(n.host, addrs))
	}
	return nil, nil
}

// knowsAny reports whether any question names one of the hub's records,
// before any work is spent on an answer.
func (h Hub) knowsAny(qs []dnsmessage.Question) bool {
	n := h.names()
	for _, q := range qs {
		name := q.Name.String()
		for _, s := range []string{servicesEnum, n.mcpType, n.httpType, n.mcpInst, n.httpInst, n.host} {
			if strings.EqualFold(name, s) {
				return true
			}
		}
	}
	return false
}

// instance is the SRV and TXT records of an instance and the A records of
// the host its SRV names.
func (h Hub) instance(n names, inst string, txt []string, addrs []net.IP) []dnsmessage.Resource {
	rrs := []dnsmessage.Resource{
		{Header: hdr(inst, dnsmessage.TypeSRV, ttlHost, true), Body: &dnsmessage.SRVResource{Port: uint16(h.Port), Target: name(n.host)}},
		{Header: hdr(inst, dnsmessage.TypeTXT, ttlOther, true), Body: &dnsmessage.TXTResource{TXT: txt}},
	}
	return append(rrs, hostRecords(n.host, addrs)...)
}

func hostRecords(host string, addrs []net.IP) []dnsmessage.Resource {
	var rrs []dnsmessage.Resource
	for _, ip := range addrs {
		if v4 := ip.To4(); v4 != nil {
			rrs = append(rrs, dnsmessage.Resource{Header: hdr(host, dnsmessage.TypeA, ttlHost, true), Body: &dnsmessage.AResource{A: [4]byte(v4)}})
		}
	}
	return rrs
}

func ptr(from, to string) dnsmessage.Resource {
	return dnsmessage.Resource{Header: hdr(from, dnsmessage.TypePTR, ttlOther, false), Body: &dnsmessage.PTRResource{PTR: name(to)}}
}

// only splits rrs into those of the question's name and type (every one
// of the name for ANY) as the answer, and the others as extra.
func only(q dnsmessage.Question, rrs []dnsmessage.Resource) (ans, extra []dnsmessage.Resource) {
	for _, rr := range rrs {
		if matches(q, rr.Header.Type) && strings.EqualFold(rr.Header.Name.String(), q.Name.String()) {
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

func matches(q dnsmessage.Question, t dnsmessage.Type) bool {
	return q.Type == t || q.Type == dnsmessage.TypeALL
}

// hdr is a record's header in class IN; unique records carry the
// cache-flush bit (RFC 6762 §10.2), shared ones (PTR) do not.
func hdr(n string, typ dnsmessage.Type, ttl uint32, unique bool) dnsmessage.ResourceHeader {
	class := dnsmessage.ClassINET
	if unique {
		class |= cacheFlush
	}
	return dnsmessage.ResourceHeader{Name: name(n), Type: typ, Class: class, TTL: ttl}
}

// label is s cut to the 63 bytes of a DNS label.
func label(s string) string { return s[:min(len(s), 63)] }

// name is s as a DNS name; the hub's names are all short enough (labels
// of up to 63 bytes, four at the most).
func name(s string) dnsmessage.Name {
	n, err := dnsmessage.NewName(s)
	if err != nil {
		panic("discovery: name " + strconv.Quote(s) + ": " + err.Error())
	}
	return n
}

// portString is the port for log lines.
func (h Hub) portString() string { return strconv.Itoa(h.Port) }
