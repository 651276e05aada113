package alerting

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// TestCondensationNotFromTheDemosOutdoors: with the demo beside a room's
// real sensor (demo: enabled: true), the demo's Balcony is an outdoor
// zone by its name, and its temperature is simulated. The condensation
// risk of the measured room must not be judged against it: the alert
// would mix the room's measured values with a simulated outside, and
// nothing says so (the demo shares no zone with the sensor).
func TestCondensationNotFromTheDemosOutdoors(t *testing.T) {
	ctx := context.Background()
	zones := []string{"Living room", "Indoor", "Bedroom", "Balcony", "Rain"}
	// The house's condensation rule, judged at once rather than held an
	// hour; frost in the demo's own Balcony is the demo's business.
	house := alerts.DefaultHouse()
	house.Condensation.For = 0
	house.Frost.Enabled = false
	h, a := openAlerting(t, config.AlertsConfig{House: house}, zones...)
	now := time.Now()
	for i := 10; i >= 0; i -= 5 {
		at := now.Add(-time.Duration(i) * time.Minute)
		if err := h.Record(ctx, sensors.Batch{Readings: []sensors.Reading{
			{Zone: "Balcony", Measurement: sensors.Temperature, Value: -12, Time: at, Source: "demo/Balcony"},
			{Zone: "Living room", Measurement: sensors.Temperature, Value: 21, Time: at, Source: "i2c1/0x44 sht3x"},
			{Zone: "Living room", Measurement: sensors.Humidity, Value: 75, Time: at, Source: "i2c1/0x44 sht3x"},
		}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range a.engine.Active() {
		t.Errorf("alert %s is active in %s, judged against the demo's simulated outdoor temperature: %+v", s.Rule, s.Zone, s)
	}
}
