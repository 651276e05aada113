package mcp

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// climateTimes writes the times of the structure in the hub's local time,
// ISO 8601, for the model to quote: the structure keeps Unix seconds (the
// seed's contract), which a model cannot turn into local time on its own.
// Times of today give the time of day alone, to stay short.
func (s *Server) climateTimes(c climate.Structure) string {
	now := s.opts.Now().In(s.opts.Location)
	today := now.Format(time.DateOnly)
	var b strings.Builder
	fmt.Fprintf(&b, "Local times (%s), today %s:", s.timeZone(), today)
	zones := make([]string, 0, len(c))
	for z := range c {
		zones = append(zones, z)
	}
	slices.Sort(zones)
	for _, z := range zones {
		var parts []string
		for _, k := range sensors.TimeKeys {
			v, ok := c[z][k].(int64)
			if !ok {
				if f, isFloat := c[z][k].(float64); isFloat {
					v, ok = int64(f), true
				}
			}
			if !ok || v == 0 {
				continue
			}
			t := time.Unix(v, 0).In(s.opts.Location)
			when := t.Format("15:04")
			if t.Format(time.DateOnly) != today {
				when = t.Format("2006-01-02T15:04")
			}
			parts = append(parts, k+" "+when)
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, "\n%s: %s", z, strings.Join(parts, ", "))
		}
	}
	return b.String()
}
