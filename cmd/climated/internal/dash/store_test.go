package dash_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/sensors"
)

// TestStoreSourceZones: a zone whose source reports itself offline is
// stale at once and shows the fault; the others are fresh; a zone silent
// longer than StaleAfter is stale.
func TestStoreSourceZones(t *testing.T) {
	store, _ := demoStore(t, 2*time.Hour)
	offline := sensors.Status{Source: "mqtt/balcony", Zones: []string{"Balcony"}, Err: fmt.Errorf("last will: %w", sensors.ErrOffline)}
	store.Report(offline)
	src := dash.StoreSource{Store: store}
	zones := src.Zones()
	if len(zones) != 4 {
		t.Fatalf("zones %+v, want the demo house's four", zones)
	}
	for _, z := range zones {
		if z.Name == "Balcony" {
			if !z.Stale || !strings.Contains(z.Fault, "mqtt/balcony") {
				t.Errorf("offline Balcony: %+v, want stale with its fault", z)
			}
		} else if z.Stale || z.Fault != "" {
			t.Errorf("%+v: want fresh, no fault (default StaleAfter 15 minutes)", z)
		}
	}
	src = dash.StoreSource{Store: store, StaleAfter: time.Nanosecond}
	for _, z := range src.Zones() {
		if !z.Stale {
			t.Errorf("%+v: silent longer than StaleAfter, want stale", z)
		}
	}
}
