package demo_test

import (
	"fmt"
	"time"

	"github.com/climated/climated/sensors/demo"
)

// At is a pure function of the seed, the location and the instant: the same
// call always prints the same simulated readings.
func ExampleHouse_At() {
	h := demo.New(&demo.Options{Seed: 1, Location: time.UTC})
	at := time.Date(2025, 7, 1, 15, 0, 0, 0, time.UTC)
	for _, r := range h.At(at) {
		if r.Zone == "Balcony" || r.Zone == "Rain" {
			fmt.Printf("%s %s %g\n", r.Source, r.Measurement, r.Value)
		}
	}
	// Output:
	// demo/Balcony Temperature 25.5
	// demo/Balcony Humidity 53
	// demo/Balcony battery_vp 5304
	// demo/Balcony battery_percent 59
	// demo/Balcony rf_status 68
	// demo/Rain Rain 0
	// demo/Rain battery_vp 5709
	// demo/Rain battery_percent 80
	// demo/Rain rf_status 65
}
