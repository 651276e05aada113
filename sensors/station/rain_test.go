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
		mm, ok, _ := g.Add(at(s.at), s.counters)
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
	g := NewRainGauge(nil, time.UTC)
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
	run(t, NewRainGauge(nil, time.UTC), []step{
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
	g := NewRainGauge(nil, time.UTC)
	run(t, g, []step{{"08:00", yearlyDaily(100, 1), 0, false}, {"08:01", yearlyDaily(100.5, 1.5), 0.5, true}})
	kept, ok := g.State()
	if !ok {
		t.Fatal("no state after two uploads")
	}
	restarted := NewRainGauge(&kept, time.UTC)
	run(t, restarted, []step{
		{"08:01", yearlyDaily(100.5, 1.5), 0, false}, // the gateway resends what was counted
		{"09:30", yearlyDaily(102.0, 3.0), 1.5, true},
	})
	fresh := NewRainGauge(nil, time.UTC) // without the state the rain of the gap is lost
	if mm, ok, _ := fresh.Add(at("09:30"), yearlyDaily(102.0, 3.0)); ok || mm != 0 {
		t.Errorf("a gauge without state counted %v", mm)
	}
}

// TestRainCounterChange: a station that stops sending its total falls
// back to the yearly counter with a new baseline, not a false reset.
func TestRainCounterChange(t *testing.T) {
	run(t, NewRainGauge(nil, time.UTC), []step{
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

// TestRainRefusals: a counter no gauge can hold and a rise no rain can
// make are refused with the baseline kept; a fall that is no reset is a
// new baseline counting nothing; a fall at the station's midnight (in its
// time zone, not UTC) is a reset even far from zero; a real rise after a
// long outage is counted whole.
func TestRainRefusals(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	daily := func(mm float64) []Counter { return []Counter{{"daily", false, false, mm}} }
	g := NewRainGauge(nil, berlin)
	for i, s := range []struct {
		at      string
		c       []Counter
		mm      float64
		counted bool
		refused bool
	}{
		{"2026-12-30 20:00", daily(5), 0, false, false},          // the baseline
		{"2026-12-30 20:01", daily(math.Inf(1)), 0, false, true}, // no counter holds it
		{"2026-12-30 20:02", daily(400), 0, false, true},         // 395 mm in two minutes
		{"2026-12-30 20:03", daily(5.5), 0.5, true, false},       // counted from 5, the baseline kept
		{"2026-12-30 20:04", daily(4.0), 0, false, true},         // a correction: the new baseline
		{"2026-12-30 20:05", daily(4.2), 0.2, true, false},       //
		{"2026-12-30 23:30", daily(3.0), 3.0, true, false},       // 00:30 in Berlin: its daily reset, 3 mm since
		{"2026-12-31 11:30", daily(603.0), 600, true, false},     // twelve hours of a monsoon
		{"2026-12-31 11:31", []Counter{{"total", false, false, -1}}, 0, false, true},
	} {
		mm, counted, err := g.Add(at(s.at), s.c)
		if math.Abs(mm-s.mm) > 1e-9 || counted != s.counted || (err != nil) != s.refused {
			t.Errorf("step %d (%s %+v): %v %v %v, want %v %v refused %v", i, s.at, s.c, mm, counted, err, s.mm, s.counted, s.refused)
		}
	}
}

// TestRainReadingsSplit: more rain than one reading may hold is spread
// over the interval it fell in, each part within the catalogue.
func TestRainReadingsSplit(t *testing.T) {
	since, at := at("2026-12-31 00:00"), at("2026-12-31 12:00")
	rs := rainReadings("Garden", "station/tipping", 1200, since, at)
	total := 0.0
	for i, r := range rs {
		if err := r.Validate(); err != nil || !r.Time.After(since) || r.Time.After(at) || (i > 0 && !r.Time.After(rs[i-1].Time)) {
			t.Errorf("part %d: %+v %v", i, r, err)
		}
		total += r.Value
	}
	if len(rs) != 3 || math.Abs(total-1200) > 1e-9 || !rs[len(rs)-1].Time.Equal(at) {
		t.Errorf("%d parts, %v mm, last at %v: want 3 parts of 1200 mm, the last at %v", len(rs), total, rs[len(rs)-1].Time, at)
	}
}
