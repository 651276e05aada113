package demo

import (
	"math"
	"time"
)

// Episode is a cooking episode or an airing, in local wall-clock time.
type Episode struct {
	Name       string
	Start, End time.Time
	// Peaks above the room's background: PM2.5 in µg/m³ and the indices.
	PM25, VOC, NOx float64
}

// Episodes returns the cooking episodes and the airing of the local date
// of midnight, in midnight's location, which must be h's.
func (h *House) Episodes(midnight time.Time) []Episode {
	day := h.instant(midnight).day
	y, m, d := midnight.Date()
	at := func(hours float64) time.Time { // wall-clock hours, as the house counts them
		return time.Date(y, m, d, 0, 0, int(math.Round(hours*3600)), 0, midnight.Location())
	}
	var es []Episode
	for _, m := range meals {
		c := h.cooking(m, day)
		es = append(es, Episode{Name: m.name, Start: at(c.start), End: at(c.end), PM25: c.pm, VOC: c.voc, NOx: c.nox})
	}
	on, off := h.airing(day)
	return append(es, Episode{Name: "airing", Start: at(on), End: at(off)})
}
