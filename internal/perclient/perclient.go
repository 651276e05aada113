package perclient

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
)

// Limit counts the holds of every client. The zero value is not ready:
// use New.
type Limit struct {
	perClient, total int

	mu      sync.Mutex
	seq     uint64 // order of the holds: lower is older
	held    int
	clients map[string]*holder
}

// holder is one client's holds.
type holder struct {
	holds   []*hold // oldest first
	evicted int     // holds ended to make room since the client last held none
}

type hold struct {
	client string
	seq    uint64
	end    func(Eviction)
	gone   bool // released or evicted: no longer counted
}

// Eviction tells the owner of a hold why it must end.
type Eviction struct {
	Client string // whose hold it is
	// Ceiling is true when all clients together were at the ceiling and
	// this client held most; false when the client was past its share.
	Ceiling bool
	// Nth counts this client's holds ended to make room since it last
	// held none: 1 the first time, so that the owner can tell the
	// operator once and not for every stream of a leaking client.
	Nth int
}

// New bounds each client to perClient holds and all together to total;
// a bound below 1 is taken as 1.
func New(perClient, total int) *Limit {
	return &Limit{perClient: max(perClient, 1), total: max(total, 1), clients: map[string]*holder{}}
}

// Hold counts a new hold of client. When that takes the client past its
// share, its oldest hold is ended; when it takes all clients past the
// ceiling, the oldest hold of the client holding most (of those holding
// most, the one whose oldest is oldest) is. The new hold itself is never
// the one ended. Ending a hold calls its end func, once, on the caller's
// goroutine and without the Limit's lock; from then on the hold no longer
// counts, so end must make the hold go away soon (close the stream or
// session). The owner calls release when the hold goes away by itself;
// release may be called more than once, and after end.
func (l *Limit) Hold(client string, end func(Eviction)) (release func()) {
	l.mu.Lock()
	l.seq++
	h := &hold{client: client, seq: l.seq, end: end}
	c := l.clients[client]
	if c == nil {
		c = &holder{}
		l.clients[client] = c
	}
	c.holds = append(c.holds, h)
	l.held++
	var ended []func()
	if len(c.holds) > l.perClient {
		ended = append(ended, l.evictLocked(client, false))
	}
	if l.held > l.total {
		ended = append(ended, l.evictLocked(l.biggestLocked(), true))
	}
	l.mu.Unlock()
	for _, f := range ended {
		f()
	}
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.dropLocked(h)
	}
}

// evictLocked stops counting the oldest hold of client and returns the
// call of its end func, to be made once the lock is released.
func (l *Limit) evictLocked(client string, ceiling bool) func() {
	c := l.clients[client]
	h := c.holds[0]
	c.evicted++
	e := Eviction{Client: client, Ceiling: ceiling, Nth: c.evicted}
	l.dropLocked(h)
	return func() { h.end(e) }
}

// biggestLocked is the client with the most holds; of those, the one
// whose oldest hold is oldest.
func (l *Limit) biggestLocked() string {
	var best string
	var most int
	var oldest uint64
	for key, c := range l.clients {
		if n := len(c.holds); n > most || n == most && c.holds[0].seq < oldest {
			best, most, oldest = key, n, c.holds[0].seq
		}
	}
	return best
}

func (l *Limit) dropLocked(h *hold) {
	if h.gone {
		return
	}
	h.gone = true
	l.held--
	c := l.clients[h.client]
	for i, o := range c.holds {
		if o == h {
			c.holds = append(c.holds[:i], c.holds[i+1:]...)
			break
		}
	}
	if len(c.holds) == 0 {
		delete(l.clients, h.client)
	}
}

// Held is how many holds all clients have.
func (l *Limit) Held() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.held
}

// HeldBy is how many holds client has.
func (l *Limit) HeldBy(client string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.clients[client]; c != nil {
		return len(c.holds)
	}
	return 0
}

// Addr is the client of r by its remote address alone: the IP, without
// the port, which differs for every connection of the same client.
func Addr(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// Client is the client of r: its remote address, and the bearer token's
// fingerprint when it presents one, so that clients behind one address
// (a proxy) that present different tokens count apart. The token is not
// kept, only the start of its SHA-256.
func Client(r *http.Request) string {
	key := Addr(r)
	if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
		key += " token:" + hex.EncodeToString(sum[:6])
	}
	return key
}

// Source is the address r came from, for limits and logs. With proxied
// set (the hub has a public_url: a tunnel or proxy on this machine passes
// the world's requests on from loopback), a loopback request is the
// address its proxy appended last to X-Forwarded-For (what a client sends
// in that header itself comes before it, so it cannot choose this one); a
// proxied request without one is "proxy", all such together. Otherwise
// it is the remote address, an IPv4 one as such even over an IPv6 socket.
// An IPv6 source is its /64 (RFC 6177: one subscriber's network, whose
// addresses a client may rotate at will), loopback aside.
func Source(r *http.Request, proxied bool) string {
	remote := Addr(r)
	ip, err := netip.ParseAddr(remote)
	if err != nil {
		return remote
	}
	ip = ip.Unmap().WithZone("")
	if !proxied || !ip.IsLoopback() {
		return network(ip)
	}
	hops := r.Header.Values("X-Forwarded-For")
	if len(hops) == 0 {
		return "proxy"
	}
	list := strings.Split(hops[len(hops)-1], ",")
	last, err := netip.ParseAddr(strings.TrimSpace(list[len(list)-1]))
	if err != nil {
		return "proxy"
	}
	return network(last.Unmap().WithZone(""))
}

// network is ip as a source: an IPv4 address, or an IPv6 one's /64.
func network(ip netip.Addr) string {
	if !ip.Is6() || ip.IsLoopback() {
		return ip.String()
	}
	return netip.PrefixFrom(ip, 64).Masked().String()
}
