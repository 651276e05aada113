package alerts_test

import (
	"context"
	"testing"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// Levels gives each zone the level rules of its scope: humidity's mould
// line indoors only, frost outdoors only, CO2 everywhere, and a user
// rule in its own zone; rules of change and silence draw no line.
func TestLevels(t *testing.T) {
	ctx := context.Background()
	e, err := alerts.New(ctx, &alerts.Options{Zones: []string{"Bedroom", "Balcony"}})
	if err != nil {
		t.Fatal(err)
	}
	user, err := e.Create(ctx, alerts.Rule{Kind: alerts.Below, Zone: "Bedroom", Measurement: sensors.Temperature, Threshold: 16})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]alerts.Level{}
	for _, l := range e.Levels() {
		got[l.Zone+" "+l.Rule] = l
	}
	want := map[string]float64{
		"Bedroom house.mould": 70, "Bedroom house.co2": 1400, "Bedroom house.battery": 15,
		"Balcony house.co2": 1400, "Balcony house.frost": 0, "Balcony house.battery": 15,
		"Bedroom " + user.ID: 16,
	}
	if len(got) != len(want) {
		t.Errorf("levels %v, want %v", got, want)
	}
	for k, th := range want {
		if l, ok := got[k]; !ok || l.Threshold != th || l.Text == "" {
			t.Errorf("%s: %+v, want threshold %g with its words", k, l, th)
		}
	}
	if l := got["Bedroom house.co2"]; l.Kind != alerts.Above || l.Measurement != sensors.CO2 {
		t.Errorf("co2 level %+v", l)
	}
}
