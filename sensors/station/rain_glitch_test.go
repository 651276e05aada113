package station

import (
	"testing"
	"time"
)

// TestGlitchToZeroAddsNoRain: one glitched upload whose counter
// reads 0 (a console that sends 0.00 for a moment, a garbled field) in
// the middle of a total counter of 1,500 mm, then the counter going on
// where it was. At most the rain that fell (0.01 mm a minute here) may be
// counted. (Adversarial pass 38: the 0 is taken as a reset, the return to
// 1,500 mm is refused as too steep a rise while the baseline stays at 0,
// and 38 minutes later the rise fits MaxRainPerMinute: the whole counter,
// 1,500 mm, is counted as rain, and the real rain in between is lost.)
func TestGlitchToZeroAddsNoRain(t *testing.T) {
	g := NewRainGauge(nil, time.UTC)
	total := func(mm float64) []Counter { return []Counter{{"total", false, false, mm}} }
	start := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	sum := 0.0
	for i, mm := range []float64{1500.00, 1500.01, 0, 1500.02} {
		got, _, _ := g.Add(start.Add(time.Duration(i)*time.Minute), total(mm))
		sum += got
	}
	for i := range 60 {
		got, _, _ := g.Add(start.Add(time.Duration(4+i)*time.Minute), total(1500.03+0.01*float64(i)))
		sum += got
	}
	if fell := 1500.62 - 1500.00; sum > fell+1 {
		t.Errorf("%.2f mm counted where %.2f mm fell", sum, fell)
	}
}

// TestSmallCounterGlitchToZero: the same with a daily counter of
// 15 mm: the return to 15.02 mm a minute after a glitch to 0 fits the
// rate, and counted 15.02 mm where 0.02 mm fell.
func TestSmallCounterGlitchToZero(t *testing.T) {
	g := NewRainGauge(nil, time.UTC)
	start := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	sum := 0.0
	for i, mm := range []float64{15.00, 15.01, 0, 15.02, 15.03} {
		got, _, _ := g.Add(start.Add(time.Duration(i)*time.Minute), []Counter{{"daily", false, false, mm}})
		sum += got
	}
	if sum > 0.03+1e-9 {
		t.Errorf("%.2f mm counted where 0.03 mm fell", sum)
	}
	// A real restart of the console: the counter goes on from 0, all counted.
	for i, mm := range []float64{0.2, 0.4} {
		got, _, _ := g.Add(start.Add(time.Duration(10+i)*time.Minute), []Counter{{"daily", false, false, mm}})
		sum += got
	}
	if sum < 0.03+0.4-1e-9 {
		t.Errorf("%.2f mm counted, want the 0.4 mm since a real restart too", sum)
	}
}
