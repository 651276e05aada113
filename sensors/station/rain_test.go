package station

import (
	"math"
	"testing"
	"time"
)

// step is one upload to a gauge and the rain it should count.
type step struct {
	at       string // 15:04 on 2026-12-31, or "2027-01-01 00:01"
	counters []Counter
	mm       float64
	counted  bool
}

func at(s string) time.Time {
	if len(s) == 5 {
		s = "2026-12-31 " + s
	}
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

func run(t *testing.T, g *RainGauge, steps []step) float64 {
	t.Helper()
	total := 0.0
	for i, s := range steps {
		mm, ok := g.Add(at(s.at), s.counters)
		if ok != s.counted || math.Abs(mm-s.mm) > 1e-9 {
			t.Errorf("step %d (%s %+v): %v %v, want %v %v", i, s.at, s.counters, mm, ok, s.mm, s.counted)
		}
		total += mm
	}
	return total
}

func yearlyDaily(y, d float64) []Counter {
	return []Counter{{"daily", false, false, d}, {"yearly", false, false, y}}
}

// TestRainAcrossResets: the yearly counter is followed; midnight's daily
// reset changes nothing, New Year's yearly reset counts the rain since,
// a repeated upload and a late one count nothing.
func TestRainAcrossResets(t *testing.T) {
	g := NewRainGauge(nil)
	total := run(t, g, []step{
		{"23:50", yearlyDaily(800.0, 3.0), 0, false}, // the baseline
		{"23:55", yearlyDaily(800.4, 3.4), 0.4, true},
		{"23:55", yearlyDaily(800.4, 3.4), 0, false}, // the same upload again
		{"23:52", yearlyDaily(800.2, 3.2), 0, false}, // a late one
		{"2027-01-01 00:00", yearlyDaily(800.9, 3.9), 0.5, true},
		{"2027-01-01 00:05", yearlyDaily(0.3, 0.3), 0.3, true}, // New Year
		{"2027-01-01 00:10", yearlyDaily(1.0, 1.0), 0.7, true},
	})
	if math.Abs(total-1.9) > 1e-9 {
		t.Errorf("%.2f mm in all, want 1.9: 0.4 + 0.5 before midnight's reset, 0.3 + 0.7 after", total)
	}
}

// TestRainGatewayReboot: a gateway that restarts with its counters at 0
// (a reboot, a console reset) counts the rain since it started again.
func TestRainGatewayReboot(t *testing.T) {
	run(t, NewRainGauge(nil), []step{
		{"10:00", []Counter{{"total", false, false, 48.504}}, 0, false},
		{"10:01", []Counter{{"total", false, false, 48.804}}, 0.3, true},
		{"10:03", []Counter{{"total", false, false, 0.2}}, 0.2, true},
		{"10:04", []Counter{{"total", false, false, 0.2}}, 0, true},
	})
}

// TestRainAcrossHubRestart: the state kept with the last amount lets a
// new gauge go on where the old one stopped: the rain that fell while
// the hub was down is counted once, in the first upload after.
func TestRainAcrossHubRestart(t *testing.T) {
	g := NewRainGauge(nil)
	run(t, g, []step{{"08:00", yearlyDaily(100, 1), 0, false}, {"08:01", yearlyDaily(100.5, 1.5), 0.5, true}})
	kept, ok := g.State()
	if !ok {
		t.Fatal("no state after two uploads")
	}
	restarted := NewRainGauge(&kept)
	run(t, restarted, []step{
		{"08:01", yearlyDaily(100.5, 1.5), 0, false}, // the gateway resends what was counted
		{"09:30", yearlyDaily(102.0, 3.0), 1.5, true},
	})
	fresh := NewRainGauge(nil) // without the state the rain of the gap is lost
	if mm, ok := fresh.Add(at("09:30"), yearlyDaily(102.0, 3.0)); ok || mm != 0 {
		t.Errorf("a gauge without state counted %v", mm)
	}
}

// TestRainCounterChange: a station that stops sending its total falls
// back to the yearly counter with a new baseline, not a false reset.
func TestRainCounterChange(t *testing.T) {
	run(t, NewRainGauge(nil), []step{
		{"12:00", []Counter{{"total", false, false, 500}, {"yearly", false, false, 30}}, 0, false},
		{"12:01", []Counter{{"yearly", false, false, 30.2}}, 0, false},
		{"12:02", []Counter{{"yearly", false, false, 30.5}}, 0.3, true},
		{"12:03", nil, 0, false},
	})
}

// TestGauges: the piezo gauge's counters go apart from the bucket's, as
// the WS90 and a WH40 both report on one GW2000A.
func TestGauges(t *testing.T) {
	tip, pz, strikes := Gauges([]Counter{{"yearly", false, false, 1}, {"yearly", true, false, 2}, {"daily", true, false, 0.5}, {"daily", false, true, 7}})
	if len(tip) != 1 || len(pz) != 2 || pz[0].MM != 2 || len(strikes) != 1 || strikes[0].MM != 7 {
		t.Errorf("tipping %+v, piezo %+v, strikes %+v", tip, pz, strikes)
	}
}
