package publish

import (
	"runtime"
	"sync"
	"weak"

	"github.com/climated/climated/mqtt"
)

// shared is what the publishers on one client have in common: the zones'
// slugs (a zone's state and alert topics share one) and the watch on Home
// Assistant's birth.
type shared struct {
	slugs  zoneSlugs
	births births
}

var (
	sharedMu sync.Mutex
	sharing  = map[weak.Pointer[mqtt.Client]]*shared{}
)

// sharedOf is c's shared state, made the first time a publisher asks for
// it and forgotten once c is collected.
func sharedOf(c *mqtt.Client) *shared {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	k := weak.Make(c)
	if s, ok := sharing[k]; ok {
		return s
	}
	s := &shared{}
	sharing[k] = s
	runtime.AddCleanup(c, func(k weak.Pointer[mqtt.Client]) {
		sharedMu.Lock()
		defer sharedMu.Unlock()
		delete(sharing, k)
	}, k)
	return s
}
