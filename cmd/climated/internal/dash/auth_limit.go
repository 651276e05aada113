package dash

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
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

// newGuesses are the limits of wrong tokens.
func newGuesses() *perclient.Tries {
	return perclient.NewTries(rate.Every(time.Minute/MaxWrongLogins), MaxWrongLogins,
		rate.Every(time.Minute/MaxLoginsTotal), MaxLoginsTotal, MaxLoginAddrs)
}

// wrongToken counts a wrong token tried at where, logs it, and says when
// the source or all sources together are past their limit.
func (h *Handler) wrongToken(r *http.Request, where string) *refusal {
	src := perclient.Source(r, h.opts.Proxied)
	no := h.guesses.Take(src, h.opts.Now())
	if no == nil {
		h.log.Warn(where+": a wrong token", "source", src, "remote", r.RemoteAddr)
		return nil
	}
	msg := fmt.Sprintf("more than %d wrong tokens from %s this minute", MaxWrongLogins, src)
	if no.All {
		msg = fmt.Sprintf("more than %d wrong tokens from all addresses this minute: someone may be guessing the token", MaxLoginsTotal)
	}
	if no.First {
		h.log.Warn(where+": wrong tokens past the limit; no more logged from this source this minute", "source", src, "why", msg)
	}
	return &refusal{msg, no.Retry}
}

// refusal says why a try was refused and when to try again.
type refusal struct {
	msg   string
	retry time.Duration
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
