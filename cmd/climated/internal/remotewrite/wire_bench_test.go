package remotewrite

import (
	"fmt"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// house is n minutes of a typical house's readings from base, as the
// history gives them: five rooms of a Netatmo station (temperature,
// humidity, CO2, noise, battery) and a garden (temperature, humidity,
// pressure, rain, wind and gusts), a reading of each a minute.
func house(base time.Time, n int) []history.Stored {
	type s struct {
		zone string
		m    sensors.Measurement
		v    float64
	}
	var all []s
	for i, z := range []string{"Living room", "Kitchen", "Bedroom", "Office", "Cellar"} {
		all = append(all, s{z, sensors.Temperature, 19.4 + float64(i)}, s{z, sensors.Humidity, 48}, s{z, sensors.CO2, 612},
			s{z, sensors.Noise, 38}, s{z, sensors.BatteryPercent, 87})
	}
	all = append(all, s{"Garden", sensors.Temperature, 7.3}, s{"Garden", sensors.Humidity, 81}, s{"Garden", sensors.Pressure, 1013.2},
		s{"Garden", sensors.Rain, 0}, s{"Garden", sensors.WindStrength, 14}, s{"Garden", sensors.GustStrength, 31})
	var rs []history.Stored
	for i := range n {
		t := base.Add(time.Duration(i) * time.Minute).Unix()
		for id, x := range all {
			v := x.v + float64(i%7)/10
			rs = append(rs, history.Stored{Position: history.Position{T: t, Series: int64(id + 1)}, Zone: x.zone, Measurement: x.m,
				Source: "netatmo/70:ee:50:3a:" + fmt.Sprint(10+id%6), Steps: int64(i % 3), Value: v})
		}
	}
	return rs
}

// BenchmarkWireBytes measures the bytes on the wire per sample, 1.0
// against 2.0, of a request of a minute of a typical house (what a hub
// up to date sends) and of a full batch (a catch-up): compressed, as
// sent, and the protobuf before compression.
func BenchmarkWireBytes(b *testing.B) {
	extra := extraLabels(nil, "cabin")
	base := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name    string
		minutes int
	}{{"minute", 1}, {"batch", DefaultBatchSize / 31}} {
		bt := makeBatch(house(base, c.minutes), map[int64]int64{}, map[int64]bool{}, extra)
		b.Run(c.name, func(b *testing.B) {
			var v1, v2, raw1, raw2 []byte
			for b.Loop() {
				v1, raw1 = encode(bt.series, nil)
				v2, raw2 = encodeV2(bt.series)
			}
			n := float64(bt.samples)
			b.ReportMetric(n, "samples")
			b.ReportMetric(float64(len(v1))/n, "B/sample-1.0")
			b.ReportMetric(float64(len(v2))/n, "B/sample-2.0")
			b.ReportMetric(float64(len(raw1))/n, "raw-B/sample-1.0")
			b.ReportMetric(float64(len(raw2))/n, "raw-B/sample-2.0")
		})
	}
}
