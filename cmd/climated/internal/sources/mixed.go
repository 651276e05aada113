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

// mixedSink is the sink the running sources record into: it hands every
// batch on to the hub, and while the demo house runs beside real sources
// it says, once each, the zones that get simulated and measured readings
// at once and that the configuration did not name (Set.Mixed, which
// warnMixed says): a device's zone from its name (auto_zone, every zone
// of another hub followed) that the demo also feeds.
type mixedSink struct {
	sensors.Sink
	log *slog.Logger

	mu    sync.Mutex
	demo  bool                 // the demo house runs
	kinds map[string]zoneKinds // zone → the kinds of source it has readings from
	said  map[string]bool      // the zones said already
}

func newMixedSink(log *slog.Logger, sink sensors.Sink) *mixedSink {
	return &mixedSink{Sink: sink, log: log}
}

// start follows set from now on: the zones the hub shows (when the sink
// describes them, as the hub does), those set.Mixed names as said.
func (m *mixedSink) start(set *Set) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.demo = set.House != nil
	m.kinds, m.said = map[string]zoneKinds{}, map[string]bool{}
	for _, z := range set.Mixed {
		m.said[z] = true
	}
	d, ok := m.Sink.(interface{ Describe() []climate.ZoneInfo })
	if !m.demo || !ok {
		return
	}
	for _, z := range d.Describe() {
		for _, src := range z.Sources {
			m.kinds[z.Name] |= kindOf(src)
		}
	}
}

// Record says the zones b makes mixed, then hands b on.
func (m *mixedSink) Record(ctx context.Context, b sensors.Batch) error {
	if zones := m.mixed(b.Readings); len(zones) > 0 {
		sayMixed(m.log, zones)
	}
	return m.Sink.Record(ctx, b)
}

// mixed notes the kinds of rs's sources and returns the zones that
// became mixed and were not said.
func (m *mixedSink) mixed(rs []sensors.Reading) []string {
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
