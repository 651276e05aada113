package sources

import (
	"context"
	"log/slog"
	"sync"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// zoneKinds are the kinds of source a zone has readings from.
type zoneKinds uint8

const (
	fromSimulated zoneKinds = 1 << iota // the demo house
	fromMeasured                        // a real source
)

func kindOf(source string) zoneKinds {
	if sensors.Simulated(source) {
		return fromSimulated
	}
	return fromMeasured
}

// mixedWatch hears what the hub records (hub.Hub.OnRecord: the readings
// it keeps, from every source, pulled or pushed) and, while the demo
// house runs beside real sources, says once each the zones that get
// simulated and measured readings at once and that the configuration did
// not name (Set.Mixed, which warnMixed says): a device's zone from its
// name (auto_zone, every zone of another hub followed) that the demo also
// feeds. Its maps hold one entry per zone the hub shows.
type mixedWatch struct {
	log *slog.Logger

	mu    sync.Mutex
	demo  bool                 // the demo house runs
	kinds map[string]zoneKinds // zone → the kinds of source it has readings from
	said  map[string]bool      // the zones said already
}

// start follows set from now on: zones are the zones the hub shows, and
// those set.Mixed names are said already.
func (m *mixedWatch) start(set *Set, zones []climate.ZoneInfo) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.demo = set.House != nil
	m.kinds, m.said = map[string]zoneKinds{}, map[string]bool{}
	for _, z := range set.Mixed {
		m.said[z] = true
	}
	if !m.demo {
		return
	}
	for _, z := range zones {
		for _, src := range z.Sources {
			m.kinds[z.Name] |= kindOf(src)
		}
	}
}

// note says the zones rs makes mixed.
func (m *mixedWatch) note(_ context.Context, rs []sensors.Reading) {
	if zones := m.mixed(rs); len(zones) > 0 {
		sayMixed(m.log, zones)
	}
}

// mixed notes the kinds of rs's sources and returns the zones that
// became mixed and were not said.
func (m *mixedWatch) mixed(rs []sensors.Reading) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.demo {
		return nil
	}
	var zones []string
	for _, r := range rs {
		k := m.kinds[r.Zone] | kindOf(r.Source)
		m.kinds[r.Zone] = k
		if k == fromSimulated|fromMeasured && !m.said[r.Zone] {
			m.said[r.Zone] = true
			zones = append(zones, r.Zone)
		}
	}
	return zones
}
