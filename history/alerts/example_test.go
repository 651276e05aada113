package alerts_test

import (
	"context"
	"fmt"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// An assistant creates a rule, reads it back to the user, and the hub feeds
// readings in the order they arrive.
func ExampleEngine() {
	now := time.Date(2025, 1, 1, 22, 0, 0, 0, time.UTC)
	h := alerts.DefaultHouse()
	h.CO2.Enabled = false // only the user's rule, for the example
	e, err := alerts.New(context.Background(), &alerts.Options{Zones: []string{"Bedroom", "Balcony"}, House: &h, Now: func() time.Time { return now }})
	if err != nil {
		panic(err)
	}
	r, err := e.Create(context.Background(), alerts.Rule{Kind: alerts.Above, Zone: "Bedroom", Measurement: sensors.CO2, Threshold: 1200, For: 15 * time.Minute})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.ID, r.Describe())
	for i, ppm := range []float64{1150, 1250, 1300, 1350, 1050} {
		t := now.Add(time.Duration(i) * 10 * time.Minute)
		evs, _ := e.Observe(context.Background(), []sensors.Reading{{Zone: "Bedroom", Measurement: sensors.CO2, Value: ppm, Time: t, Source: "example"}})
		for _, ev := range evs {
			fmt.Println(t.Format("15:04"), ev.Type, ev.Text)
		}
	}
	// Output:
	// u1 Bedroom CO2 above 1200 ppm for 15 min (clears below 1100 ppm)
	// 22:30 fired Bedroom CO2 above 1200 ppm for 15 min: 1350 ppm
	// 22:40 cleared Bedroom CO2 back below 1100 ppm after 10 min: 1050 ppm
}
