package mcp

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// TestAlertHistoryOldPeriod: the history's period is chosen before its
// limit. With 1,200 events in the last hour and 30 ten days ago (more new
// ones than the resource's largest limit), asking for the old day answers
// its 30 events, newest first, and none of the new ones.
func TestAlertHistoryOldPeriod(t *testing.T) {
	h := newAlertHub(t)
	now := time.Now().Truncate(time.Second)
	old := now.Add(-10 * 24 * time.Hour)
	event := func(at time.Time, i int) alerts.Event {
		return alerts.Event{Type: alerts.Fired, Rule: "u1", Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2,
			Value: float64(1200 + i), Unit: "ppm", Text: "Bedroom CO2 above 1200 ppm", Time: at}
	}
	var evs []alerts.Event
	for i := range 30 {
		evs = append(evs, event(old.Add(time.Duration(i)*time.Minute), i))
	}
	for i := range 1200 {
		evs = append(evs, event(now.Add(-time.Hour+time.Duration(i)*time.Second), i))
	}
	if err := h.db.Commit(context.Background(), nil, evs); err != nil {
		t.Fatal(err)
	}
	cs := h.inMemory(t, nil)
	q := url.Values{"since": {old.Add(-time.Hour).Format(time.RFC3339)}, "until": {old.Add(time.Hour).Format(time.RFC3339)}, "limit": {"1000"}}
	var got struct {
		Events []eventView `json:"events"`
	}
	text := readText(t, cs, URIAlertsHistory+"?"+q.Encode())
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 30 || got.Events[0].Value != 1229 || got.Events[29].Time != old.Unix() {
		t.Fatalf("%d events of the old day, want 30 from %d down to %d: %.300s", len(got.Events), old.Unix()+29*60, old.Unix(), text)
	}
	// until alone, with the default limit: the newest 50 before it.
	q = url.Values{"until": {old.Add(time.Hour).Format(time.RFC3339)}}
	text = readText(t, cs, URIAlertsHistory+"?"+q.Encode())
	if err := json.Unmarshal([]byte(text), &got); err != nil || len(got.Events) != 30 {
		t.Errorf("until alone: %d events (%v), want 30", len(got.Events), err)
	}
}
