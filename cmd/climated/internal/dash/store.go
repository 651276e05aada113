package dash

import (
	"context"
	"errors"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// StoreSource adapts a history.Store (and the hub's source statuses) to
// Source; its methods are documented there.
type StoreSource struct {
	Store      *history.Store
	StaleAfter time.Duration           // a zone silent this long is stale
	Statuses   func() []sensors.Status // nil: no faults known
}

func (s StoreSource) Climate() []byte   { return s.Store.ClimateJSON() }
func (s StoreSource) OnChange(f func()) { s.Store.OnUpdate(func([]string, bool) { f() }) }
func (s StoreSource) Range(ctx context.Context, zone, m string, from, to time.Time, n int) (any, error) {
	return s.Store.Range(ctx, history.Query{Zone: zone, Measurement: sensors.Measurement(m), From: from, To: to, MaxPoints: n})
}
func (s StoreSource) Zones() []Zone {
	faults, offline := map[string]string{}, map[string]bool{}
	if s.Statuses != nil {
		for _, st := range s.Statuses() {
			for _, z := range st.Zones {
				if st.Err != nil {
					faults[z], offline[z] = st.Source+": "+st.Err.Error(), offline[z] || errors.Is(st.Err, sensors.ErrOffline)
				}
			}
		}
	}
	var out []Zone
	for _, z := range s.Store.Describe() {
		silent := time.Since(time.Unix(z.When, 0)) > s.StaleAfter
		out = append(out, Zone{Name: z.Name, Stale: offline[z.Name] || silent, Fault: faults[z.Name], When: z.When})
	}
	return out
}
