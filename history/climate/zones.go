package climate

import (
	"sort"

	"github.com/climated/climated/sensors"
)

// MeasurementInfo describes one measurement of a zone as it stands.
type MeasurementInfo struct {
	Name        sensors.Measurement `json:"name"`
	Unit        string              `json:"unit,omitempty"`
	Description string              `json:"description"`
	Source      string              `json:"source,omitempty"`
	Value       float64             `json:"value"`
	When        int64               `json:"when"`
}

// ZoneInfo describes a zone: its measurements, the sources that feed it
// and the time of its latest reading.
type ZoneInfo struct {
	Name         string            `json:"name"`
	Measurements []MeasurementInfo `json:"measurements"`
	Sources      []string          `json:"sources"`
	When         int64             `json:"when"`
}

// Describe lists every zone with its measurements, sorted by name.
func (l *Live) Describe() []ZoneInfo {
	h := NewestCurrent(l.opts.Now())
	l.mu.RLock()
	defer l.mu.RUnlock()
	byZone := map[string]*ZoneInfo{}
	for k, r := range l.series {
		latest, ok := r.latest(h)
		if !ok {
			continue
		}
		z := byZone[k.zone]
		if z == nil {
			z = &ZoneInfo{Name: k.zone}
			byZone[k.zone] = z
		}
		info, _ := sensors.Lookup(k.m)
		z.Measurements = append(z.Measurements, MeasurementInfo{Name: k.m, Unit: info.Unit, Description: info.Description,
			Source: r.source, Value: round(k.m, latest.V), When: latest.T})
		z.When = max(z.When, latest.T)
	}
	out := make([]ZoneInfo, 0, len(byZone))
	for _, z := range byZone {
		sort.Slice(z.Measurements, func(i, j int) bool { return z.Measurements[i].Name < z.Measurements[j].Name })
		seen := map[string]bool{}
		for _, m := range z.Measurements {
			if m.Source != "" && !seen[m.Source] {
				seen[m.Source] = true
				z.Sources = append(z.Sources, m.Source)
			}
		}
		sort.Strings(z.Sources)
		out = append(out, *z)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
