package dash

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/climated/climated/internal/perclient"
)

// Bounds of the wrong tokens tried at the login and on the consent page.
// The token is compared first: the right one always gets in, whoever
// else is guessing. With 130 bits a guess never succeeds; what a limit
// can protect is the owner's way in (through a tunnel every request
// comes from loopback, and a limit on all of them locked the owner out),
// the log and the hub's time. So only wrong tries are counted: per
// source (perclient.Source: behind the hub's proxy, the address it
// forwards) and for all sources together, and past either limit a wrong
// try is answered 429 with Retry-After. Each is logged, the first
// MaxWrongLogins of a source a minute one by one, then once a minute.
const (
	// MaxWrongLogins is how many wrong tokens one source may try a
	// minute (at once, then one every 6 s) before it is answered 429.
	MaxWrongLogins = 10
	// MaxLoginsTotal is how many wrong tokens all sources together may
	// try a minute: the ceiling of a guess spread over many addresses.
	MaxLoginsTotal = 60
	// MaxLoginAddrs bounds the sources remembered (an entry is about 250
	// bytes: 256 KB at most). A source idle for a minute is back to all
	// its tries and is forgotten first; past the bound the least recently
	// seen one is, which gives it its tries back but not the ceiling's.
	MaxLoginAddrs = 1024
)

// wrongToken counts a wrong token tried at where, logs it, and says when
// the source or all sources together are past their limit.
func (h *Handler) wrongToken(r *http.Request, where string) *refusal {
	src := perclient.Source(r, h.opts.Proxied)
	no := h.guesses.useTry(src, h.opts.Now())
	if no == nil {
		h.log.Warn(where+": a wrong token", "source", src, "remote", r.RemoteAddr)
	} else if h.guesses.firstRefusal(src) {
		h.log.Warn(where+": wrong tokens past the limit; no more logged from this source this minute", "source", src, "why", no.msg)
	}
	return no
}

// guesses are the login's limits; the zero value is ready to use.
type guesses struct {
	mu    sync.Mutex
	all   *rate.Limiter
	addrs map[string]*addrTries
}

type addrTries struct {
	lim     *rate.Limiter
	seen    time.Time
	refused bool // a refusal of this source's was logged since it last had tries
}

// firstRefusal reports whether addr's refusal is the first since it last
// had tries left, for the log.
func (g *guesses) firstRefusal(addr string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	a := g.addrs[addr]
	if a == nil || a.refused {
		return false
	}
	a.refused = true
	return true
}

// refusal says why a try was refused and when to try again.
type refusal struct {
	msg   string
	retry time.Duration
}

// useTry uses one try of addr's and one of the ceiling's, or neither when
// either has none left: then it says which and for how long. The tries
// are wrong tokens: a right one takes none.
func (g *guesses) useTry(addr string, now time.Time) *refusal {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.all == nil {
		g.all = rate.NewLimiter(rate.Every(time.Minute/MaxLoginsTotal), MaxLoginsTotal)
		g.addrs = map[string]*addrTries{}
	}
	a := g.addrs[addr]
	if a == nil {
		g.makeRoom(now)
		a = &addrTries{lim: rate.NewLimiter(rate.Every(time.Minute/MaxWrongLogins), MaxWrongLogins)}
		g.addrs[addr] = a
	}
	a.seen = now
	switch {
	case a.lim.TokensAt(now) < 1:
		return &refusal{fmt.Sprintf("more than %d wrong tokens from %s this minute", MaxWrongLogins, addr), untilToken(a.lim, now)}
	case g.all.TokensAt(now) < 1:
		return &refusal{fmt.Sprintf("more than %d wrong tokens from all addresses this minute: someone may be guessing the token", MaxLoginsTotal), untilToken(g.all, now)}
	}
	// Both have a try, and only take changes them (under g.mu): both succeed.
	a.refused = false
	a.lim.AllowN(now, 1)
	g.all.AllowN(now, 1)
	return nil
}

// makeRoom keeps the map under MaxLoginAddrs before an address is added.
func (g *guesses) makeRoom(now time.Time) {
	if len(g.addrs) < MaxLoginAddrs {
		return
	}
	for k, a := range g.addrs {
		if a.lim.TokensAt(now) >= MaxWrongLogins {
			delete(g.addrs, k)
		}
	}
	if len(g.addrs) < MaxLoginAddrs {
		return
	}
	var oldest string
	for k, a := range g.addrs {
		if oldest == "" || a.seen.Before(g.addrs[oldest].seen) {
			oldest = k
		}
	}
	delete(g.addrs, oldest)
}

// untilToken is how long lim takes to have a whole try again.
func untilToken(lim *rate.Limiter, now time.Time) time.Duration {
	missing := 1 - lim.TokensAt(now)
	return time.Duration(math.Ceil(missing / float64(lim.Limit()) * float64(time.Second)))
}

// remoteIP is the address of r's client without its port, an IPv4 one
// as such even when it came over an IPv6 socket.
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.Unmap().WithZone("").String()
	}
	return host
}

// refuse answers a try that take refused, and closes the connection
// rather than read the rest of its form.
func (f *refusal) refuse(w http.ResponseWriter) {
	secs := max(1, int(math.Ceil(f.retry.Seconds())))
	w.Header().Set("Retry-After", fmt.Sprint(secs))
	w.Header().Set("Connection", "close")
	http.Error(w, fmt.Sprintf("%s: try again in %d s", f.msg, secs), http.StatusTooManyRequests)
}
