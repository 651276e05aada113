package dash

import (
	"cmp"
	"context"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors"
)

// StoreSource adapts the hub (its structure, history and source
// statuses) to Source; its methods are documented there.
type StoreSource struct {
	Store        *hub.Hub
	StaleAfter   time.Duration  // a zone silent this long is stale; 0 means climate.DefaultStaleAfter
	ActiveAlerts func() []Alert // the alerts that are on; nil: none
	// Levels gives the alert rules' lines (alerts.Engine.Levels); nil: none.
	Levels func() []alerts.Level
}

func (s StoreSource) Thresholds() []Threshold {
	if s.Levels == nil {
		return nil
	}
	var out []Threshold
	for _, l := range s.Levels() {
		out = append(out, Threshold{Zone: l.Zone, Key: string(l.Measurement), Above: l.Kind == alerts.Above, Value: l.Threshold, Rule: l.Rule, Text: l.Text})
	}
	return out
}

func (s StoreSource) Alerts() []Alert {
	if s.ActiveAlerts == nil {
		return nil
	}
	return s.ActiveAlerts()
}

func (s StoreSource) Climate() []byte   { return s.Store.Snapshot().JSON }
func (s StoreSource) OnChange(f func()) { s.Store.OnUpdate(func([]string, bool) { f() }) }
func (s StoreSource) Range(ctx context.Context, zone, m string, from, to time.Time, days bool, n int) (any, error) {
	return s.Store.Range(ctx, history.Query{Zone: zone, Measurement: sensors.Measurement(m), From: from, To: to, Days: days, MaxPoints: n})
}
func (s StoreSource) Zones() []Zone {
	health, out, after := sensors.HealthByZone(s.Store.Statuses()), []Zone{}, cmp.Or(s.StaleAfter, climate.DefaultStaleAfter)
	for _, z := range s.Store.Describe() {
		h := health[z.Name]
		out = append(out, Zone{Name: z.Name, Stale: climate.Stale(z.When, h.Offline, time.Now(), after), Fault: h.Fault, When: z.When})
	}
	return out
}
