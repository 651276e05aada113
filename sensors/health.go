package sensors

import (
	"cmp"
	"errors"
	"slices"
)

// ZoneHealth is what the sources feeding a zone say of it.
type ZoneHealth struct {
	// Fault is the last error of a source feeding the zone, as
	// "source: error"; empty while they all read.
	Fault string
	// Offline: a source feeding the zone reports itself (or another hub
	// reports the zone) offline, so the zone is stale at once rather than
	// after a silence.
	Offline bool
}

// HealthByZone gathers the sources' statuses by zone: what describe_zones, the
// dashboard and the clients' log notifications say of each zone. Of two
// sources of a zone that fail, the one offline is named, else the first
// by name.
func HealthByZone(statuses []Status) map[string]ZoneHealth {
	out := map[string]ZoneHealth{}
	sorted := slices.SortedFunc(slices.Values(statuses), func(a, b Status) int { return cmp.Compare(a.Source, b.Source) })
	for _, st := range sorted {
		if st.Err == nil {
			continue
		}
		for _, z := range st.Zones {
			h := out[z]
			if h.Fault == "" || !h.Offline && errors.Is(st.Err, ErrOffline) {
				h.Fault = st.Source + ": " + st.Err.Error()
			}
			h.Offline = h.Offline || errors.Is(st.Err, ErrOffline)
			out[z] = h
		}
	}
	return out
}

// SameHealth says whether two statuses of a source say the same of its
// zones' health (not of when it last read).
func SameHealth(a, b Status) bool {
	if (a.Err == nil) != (b.Err == nil) || a.Err != nil && a.Err.Error() != b.Err.Error() {
		return false
	}
	return slices.Equal(a.Zones, b.Zones)
}
