package publish

import (
	"fmt"
	"hash/fnv"
	"sync"
)

// zoneSlugs gives each zone a topic level of its own under one prefix:
// its slug, or, when another zone has that slug already ("Living room"
// and "Living-room" are both living_room), the slug and an FNV-32a hash of
// the name. The publishers on one client share one (sharedOf), so that the state publisher and the
// alert publisher, which share a client, put a zone's topics and Home
// Assistant ids under the same slug. Safe for concurrent use: the two
// publishers run in goroutines of their own.
type zoneSlugs struct {
	mu     sync.Mutex
	byZone map[string]string // zone → its slug
	bySlug map[string]string // slug → the zone that has it
}

// of is zone's slug, allocated the first time it is asked for.
func (z *zoneSlugs) of(zone string) string {
	z.mu.Lock()
	defer z.mu.Unlock()
	if s, ok := z.byZone[zone]; ok {
		return s
	}
	if z.byZone == nil {
		z.byZone, z.bySlug = map[string]string{}, map[string]string{}
	}
	s := slug(zone)
	if _, taken := z.bySlug[s]; s == "" || taken {
		h := fnv.New32a()
		h.Write([]byte(zone))
		s = fmt.Sprintf("%s_%08x", s, h.Sum32())
	}
	z.byZone[zone], z.bySlug[s] = s, zone
	return s
}
