package oauth

import (
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/climated/climated/internal/perclient"
)

// Bounds of the registration limit beside the per-source rate of Options.
const (
	// maxSources bounds the sources remembered; a source whose limiter is
	// full again is forgotten first.
	maxSources = 1024
	// registerCeiling is how many times a source's rate all sources
	// together may register: a flood from many addresses still ends.
	registerCeiling = 6
)

// perSource limits a request per source (perclient.Source: behind the
// hub's proxy, the address it forwards, so that one client flooding
// /register through a tunnel does not refuse every assistant's), with a
// ceiling for all sources together.
type perSource struct {
	rate  rate.Limit
	burst int
	now   func() time.Time

	mu    sync.Mutex
	all   *rate.Limiter
	perID map[string]*rate.Limiter
}

func newPerSource(r rate.Limit, burst int, now func() time.Time) *perSource {
	all := r * registerCeiling
	if r == rate.Inf {
		all = rate.Inf
	}
	return &perSource{rate: r, burst: burst, now: now, perID: map[string]*rate.Limiter{},
		all: rate.NewLimiter(all, burst*registerCeiling)}
}

// allow takes one request of r's source and one of the ceiling's, or
// neither.
func (p *perSource) allow(r *http.Request) bool {
	src := perclient.Source(r, true) // OAuth runs only with public_url: behind a proxy
	now := p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	lim := p.perID[src]
	if lim == nil {
		p.makeRoom(now)
		lim = rate.NewLimiter(p.rate, p.burst)
		p.perID[src] = lim
	}
	if lim.TokensAt(now) < 1 || p.all.TokensAt(now) < 1 {
		return false
	}
	lim.AllowN(now, 1)
	p.all.AllowN(now, 1)
	return true
}

// makeRoom keeps the map under maxSources: full limiters go first, then
// any one.
func (p *perSource) makeRoom(now time.Time) {
	if len(p.perID) < maxSources {
		return
	}
	for k, lim := range p.perID {
		if lim.TokensAt(now) >= float64(p.burst) {
			delete(p.perID, k)
		}
	}
	for k := range p.perID {
		if len(p.perID) < maxSources {
			return
		}
		delete(p.perID, k)
	}
}
