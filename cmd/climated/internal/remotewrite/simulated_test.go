package remotewrite

import (
	"math"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestMeasuredCounterStartsWithoutTheDemo: a rain series the demo filled
// and a station then takes drops the demo's readings (sensors.Claim); the
// counter pushed for the station (simulated="false") counts the station's
// rain alone, not on from the demo's total.
func TestMeasuredCounterStartsWithoutTheDemo(t *testing.T) {
	st := openHistory(t)
	base := time.Now().Add(-30 * time.Minute).Truncate(time.Minute)
	rain := func(min int, mm float64, src string) sensors.Reading {
		return sensors.Reading{Zone: "Cabin", Measurement: sensors.Rain, Value: mm, Time: base.Add(time.Duration(min) * time.Minute), Source: src}
	}
	record(t, st, rain(0, 0.2, "demo/Cabin"), rain(1, 0.2, "demo/Cabin"), rain(2, 0.2, "demo/Cabin"))
	r := newReceiver(t)
	s := run(t, st, Config{URL: r.srv.URL, Backfill: time.Hour})
	testutil.WaitFor(t, "the demo's rain sent", func() bool { return s.Status().Sent == 3 })
	record(t, st, rain(10, 0.4, "station/gw2000a"))
	s.Poke()
	testutil.WaitFor(t, "the station's rain sent", func() bool { return s.Status().Sent == 4 })
	r.mu.Lock()
	defer r.mu.Unlock()
	var got []sample
	for _, body := range r.took {
		got = append(got, decode(t, body)["__name__=climated_rain_meters_total,instance=hub,job=climated,simulated=false,source=station/gw2000a,zone=Cabin,"]...)
	}
	if len(got) != 1 {
		for _, body := range r.took {
			t.Logf("taken: %v", decode(t, body))
		}
		t.Fatalf("the station's counter has %d samples, want 1", len(got))
	}
	if math.Abs(got[0].value-0.0004) > 1e-12 {
		t.Errorf("the station's rain counter is %g m, want its own 0.4 mm (0.0004 m), not on from the demo's 0.6 mm", got[0].value)
	}
}
