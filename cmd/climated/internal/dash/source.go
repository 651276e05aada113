package dash

import (
	"context"
	"time"
)

// Source is what the dashboard reads. Its methods are called from request
// goroutines and must be safe for concurrent use.
type Source interface {
	// Climate is the get_climate structure as JSON (what /api/climate serves).
	Climate() []byte
	// Zones reports each zone's status, sorted by name.
	Zones() []Zone
	// Range answers a history read of one measurement of one zone over
	// [from, to) in at most maxPoints buckets, or in local days
	// (history.Query.Days). The value is encoded as JSON
	// with the fields of history.Series: tier, step_seconds, summary,
	// columns ("t","mean","min","max" or "t","sum") and points.
	Range(ctx context.Context, zone, measurement string, from, to time.Time, days bool, maxPoints int) (any, error)
	// OnChange registers f to be called after new readings arrive. f must
	// return at once: it runs on the recording goroutine.
	OnChange(f func())
}

// Zone is the status of a zone as the MCP tools report it.
type Zone struct {
	Name  string `json:"name"`
	Stale bool   `json:"stale"`           // silent too long, or its source reports itself offline
	Fault string `json:"fault,omitempty"` // the latest error of a source feeding it
	When  int64  `json:"when"`            // Unix time of its latest reading
}

// Alert is an alert that is on, as the page shows it above the cards.
type Alert struct {
	Zone  string  `json:"zone"`
	Rule  string  `json:"rule"`  // the rule's id
	Text  string  `json:"text"`  // the rule in words
	Since int64   `json:"since"` // when it fired, Unix time
	Value float64 `json:"value"` // the value that fired it
}

// Alerting is what a Source may add: the alerts that are on, the earliest
// first.
type Alerting interface {
	Alerts() []Alert
}

// Threshold is the line a level rule draws for one measurement of one
// zone (the alert rules' own, house rules and the user's): the page marks
// a value past it, before the rule's hold makes it an alert.
type Threshold struct {
	Zone  string  `json:"zone"`
	Key   string  `json:"key"`   // the measurement
	Above bool    `json:"above"` // past means above the value; false: below it
	Value float64 `json:"value"` // in the measurement's unit
	Rule  string  `json:"rule"`  // the rule's id
	Text  string  `json:"text"`  // the rule in words
}

// Thresholding is what a Source may add: the lines of the alert rules.
type Thresholding interface {
	Thresholds() []Threshold
}
