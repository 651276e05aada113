package oauth

import (
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"github.com/climated/climated/internal/perclient"
)

// Bounds of the registration limit beside the per-source rate of Options.
const (
	// maxSources bounds the sources remembered.
	maxSources = 1024
	// registerCeiling is how many times a source's rate all sources
	// together may register: a flood from many addresses still ends.
	registerCeiling = 6
)

// perSource limits registrations per source (perclient.Source: behind
// the hub's proxy, the address it forwards, so that one client flooding
// /register through a tunnel does not refuse every assistant's), with a
// ceiling for all sources together.
type perSource struct {
	tries *perclient.Tries
	now   func() time.Time
}

func newPerSource(r rate.Limit, burst int, now func() time.Time) *perSource {
	all := r * registerCeiling
	if r == rate.Inf {
		all = rate.Inf
	}
	return &perSource{tries: perclient.NewTries(r, burst, all, burst*registerCeiling, maxSources), now: now}
}

// allow takes one registration of r's source and one of the ceiling's,
// or neither.
func (p *perSource) allow(r *http.Request) bool {
	return p.allowSource(requestSource(r))
}

// allowSource is allow for the source requestSource named.
func (p *perSource) allowSource(source string) bool {
	return p.tries.Take(source, p.now()) == nil
}

// requestSource is who sent r: OAuth runs only with public_url, behind a
// proxy (perclient.Source).
func requestSource(r *http.Request) string { return perclient.Source(r, true) }
