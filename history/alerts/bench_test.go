package alerts_test

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/history/alerts"
	"github.com/climated/climated/sensors"
)

// hundredRules creates 100 user rules over the demo's zones and
// measurements: levels, rates (over 3 h windows) and silences.
func hundredRules(b testing.TB, e *alerts.Engine) {
	type spec struct {
		zone string
		m    sensors.Measurement
		lo   float64
	}
	specs := []spec{
		{"Indoor", sensors.Temperature, 15}, {"Indoor", sensors.Humidity, 30}, {"Indoor", sensors.CO2, 800},
		{"Indoor", sensors.Pressure, 990}, {"Indoor", sensors.PM25, 10}, {"Indoor", sensors.VOCIndex, 150},
		{"Bedroom", sensors.Temperature, 15}, {"Bedroom", sensors.CO2, 800}, {"Bedroom", sensors.BatteryPercent, 20},
		{"Balcony", sensors.Temperature, -5}, {"Balcony", sensors.Humidity, 50}, {"Balcony", sensors.RFStatus, 70},
	}
	for i := range alerts.MaxUserRules {
		s := specs[i%len(specs)]
		r := alerts.Rule{Zone: s.zone, Measurement: s.m, Threshold: s.lo + float64(i/len(specs)), For: 10 * time.Minute}
		switch i % 4 {
		case 0, 1:
			r.Kind = alerts.Above
		case 2:
			r.Kind = alerts.Below
		case 3:
			r.Kind, r.Threshold, r.Window, r.For = alerts.Fall, 1+float64(i%3), 3*time.Hour, 0
		}
		if i%25 == 24 {
			r = alerts.Rule{Kind: alerts.Stale, Zone: s.zone, For: time.Hour}
		}
		if _, err := e.Create(context.Background(), r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkObserve100Rules is the cost of evaluating 100 user rules and
// the house rules per reading of the demo house (27 readings a minute),
// in memory (a Store writes only on a change of phase).
func BenchmarkObserve100Rules(b *testing.B) {
	c := &clock{jan1}
	e := newEngine(b, c, nil, nil)
	hundredRules(b, e)
	h := house()
	const minutes = 3 * 24 * 60
	batches := make([][]sensors.Reading, minutes)
	n := 0
	for i := range batches {
		batches[i] = h.At(jan1.Add(time.Duration(i) * time.Minute))
		n += len(batches[i])
	}
	ctx := context.Background()
	b.ResetTimer()
	readings := 0
	for i := 0; b.Loop(); i++ {
		k := i % minutes
		if k == 0 && i > 0 {
			b.StopTimer()
			e = newEngine(b, c, nil, nil) // time only moves forward
			hundredRules(b, e)
			b.StartTimer()
		}
		c.t = batches[k][0].Time
		if _, err := e.Observe(ctx, batches[k]); err != nil {
			b.Fatal(err)
		}
		readings += len(batches[k])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(readings), "ns/reading")
}
