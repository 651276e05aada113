package dash_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
)

// TestStateUnitsKinds: /dash/state names the kind of every measurement of
// the catalogue, the page's cue for how to show and chart it: a wind
// direction is "direction" (a compass, points without a band).
func TestStateUnitsKinds(t *testing.T) {
	store := emptyStore(t)
	base := serve(t, "127.0.0.1", newDash(t, dash.StoreSource{Store: store, StaleAfter: time.Hour}, nil))
	res, err := http.Get(base + "/dash/state")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st struct {
		Units map[string]struct{ Kind string } `json:"units"`
		Order []string                         `json:"order"`
	}
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"gauge": true, "amount": true, "direction": true, "health": true}
	for _, m := range st.Order {
		if k := st.Units[m].Kind; !known[k] {
			t.Errorf("%s: kind %q, want one of gauge, amount, direction, health", m, k)
		}
	}
	want := map[string]string{"WindAngle": "direction", "GustAngle": "direction", "WindStrength": "gauge", "Lightning": "amount", "Rain": "amount", "UV": "gauge"}
	for m, k := range want {
		if got := st.Units[m].Kind; got != k {
			t.Errorf("%s: kind %q, want %q", m, got, k)
		}
	}
}
