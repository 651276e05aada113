package mcp

import (
	"slices"
	"sync"

	"github.com/climated/climated/sensors"
)

// measures are the measurements the house has recorded, which the tools
// name (get_climate's keys, get_history's and create_alert's enums): a
// house without a weather station is not told about wind, and one with
// it is, once its first reading comes. tools/list is read at the start
// of every conversation, and the catalogue's every entry would cost a
// house of room sensors more than its own tools.
type measures struct {
	mu   sync.Mutex
	list []sensors.Measurement // in the catalogue's order
}

// houseMeasures are the measurements of every zone the hub knows, in the
// catalogue's order; every measurement of the catalogue while it knows
// none (a hub that has recorded nothing yet may be told anything).
func (s *Server) houseMeasures() []sensors.Measurement {
	has := map[sensors.Measurement]bool{}
	for _, z := range s.hub.Describe() {
		for _, m := range z.Measurements {
			has[m.Name] = true
		}
	}
	var out []sensors.Measurement
	for _, info := range sensors.Catalogue() {
		if has[info.Name] || len(has) == 0 {
			out = append(out, info.Name)
		}
	}
	return out
}

// measured is the list the tools were last built with, read once at
// build.
func (s *Server) measured() []sensors.Measurement {
	s.measures.mu.Lock()
	defer s.measures.mu.Unlock()
	if s.measures.list == nil {
		s.measures.list = s.houseMeasures()
	}
	return s.measures.list
}

// syncMeasures rebuilds the tools that name the house's measurements
// when a reading has brought a new one: the go-sdk replaces them and
// sends notifications/tools/list_changed to every session.
func (s *Server) syncMeasures() {
	now := s.houseMeasures()
	s.measures.mu.Lock()
	same := slices.Equal(now, s.measures.list)
	s.measures.list = now
	s.measures.mu.Unlock()
	if same {
		return
	}
	s.addClimateTool()
	s.addHistoryTools()
	s.addAlertTools()
}

// measuredNames are the names of the house's measurements, sorted: the
// enums of get_history and create_alert.
func (s *Server) measuredNames() []string {
	var names []string
	for _, m := range s.measured() {
		names = append(names, string(m))
	}
	slices.Sort(names)
	return names
}
