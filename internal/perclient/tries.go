package perclient

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Tries limits what each source (Source) may do and what all sources
// together may: the dashboard's wrong tokens, the OAuth registrations. A
// try takes one of its source's and one of all's, or neither, under one
// lock, so that concurrent tries cannot pass a limit. It remembers at
// most MaxKeys sources: one whose tries are all back goes first, then the
// least recently seen (which gets its tries back, but not all's).
type Tries struct {
	keyRate, allRate   rate.Limit
	keyBurst, allBurst int
	maxKeys            int

	mu   sync.Mutex
	all  *rate.Limiter
	keys map[string]*keyTries
}

type keyTries struct {
	lim     *rate.Limiter
	seen    time.Time
	refused bool // a refusal was reported since the source last had a try
}

// Refusal says why a try was refused and how long until one is there.
type Refusal struct {
	All   bool          // all sources together are past their limit; false: this source is
	Retry time.Duration // until the limit that refused has a whole try again
	First bool          // the source's first refusal since it last had a try (log it once)
}

// NewTries bounds each source to keyBurst tries at once, then keyRate a
// second, and all sources together to allBurst, then allRate; it
// remembers at most maxKeys sources (at least 1).
func NewTries(keyRate rate.Limit, keyBurst int, allRate rate.Limit, allBurst, maxKeys int) *Tries {
	return &Tries{keyRate: keyRate, keyBurst: keyBurst, allRate: allRate, allBurst: allBurst, maxKeys: max(1, maxKeys),
		all: rate.NewLimiter(allRate, allBurst), keys: map[string]*keyTries{}}
}

// Take uses one try of key's and one of all's at now, or refuses.
func (t *Tries) Take(key string, now time.Time) *Refusal {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := t.keys[key]
	if k == nil {
		t.makeRoom(now)
		k = &keyTries{lim: rate.NewLimiter(t.keyRate, t.keyBurst)}
		t.keys[key] = k
	}
	k.seen = now
	refused := func(all bool, lim *rate.Limiter) *Refusal {
		first := !k.refused
		k.refused = true
		return &Refusal{All: all, Retry: untilTry(lim, now), First: first}
	}
	switch {
	case k.lim.TokensAt(now) < 1:
		return refused(false, k.lim)
	case t.all.TokensAt(now) < 1:
		return refused(true, t.all)
	}
	k.refused = false
	k.lim.AllowN(now, 1)
	t.all.AllowN(now, 1)
	return nil
}

// Keys is how many sources are remembered.
func (t *Tries) Keys() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.keys)
}

// makeRoom keeps the map under maxKeys before a source is added.
func (t *Tries) makeRoom(now time.Time) {
	if len(t.keys) < t.maxKeys {
		return
	}
	for key, k := range t.keys {
		if k.lim.TokensAt(now) >= float64(t.keyBurst) {
			delete(t.keys, key)
		}
	}
	if len(t.keys) < t.maxKeys {
		return
	}
	var oldest string
	for key, k := range t.keys {
		if oldest == "" || k.seen.Before(t.keys[oldest].seen) {
			oldest = key
		}
	}
	delete(t.keys, oldest)
}

// untilTry is how long lim takes to have a whole try again.
func untilTry(lim *rate.Limiter, now time.Time) time.Duration {
	if lim.Limit() == rate.Inf {
		return 0
	}
	missing := 1 - lim.TokensAt(now)
	return time.Duration(math.Ceil(missing / float64(lim.Limit()) * float64(time.Second)))
}
