package remotewrite

import (
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// TestClockSetBackWithASourceAFewMinutesFast: the hub's clock a year
// ahead and set right, as in TestClockSetBackSurvivesRestart; among the
// readings recorded once it is right is one of a device whose own clock
// runs two minutes fast (within climate.MaxAhead, which the history
// takes), and it goes on sending a reading a minute. When the sender
// finds the clock set back, such a reading is the first after its
// present, though it was never sent ahead. Every reading due must reach
// the store once: the fast device's too, and none of the backfill's
// hour sent again each time the clock passes one of them.
func TestClockSetBackWithASourceAFewMinutesFast(t *testing.T) {
	st, r, truth, clock, now := yearAhead(t)
	o := Options{Config: Config{URL: r.srv.URL, Backfill: time.Hour, Interval: time.Second, MaxBackoff: time.Second}, CommitInterval: time.Second, Hostname: "hub", Now: now}
	s, stop := runWith(t, st, o)
	defer stop()
	ahead := time.Unix(0, clock.Load()).Add(-30 * time.Minute).Truncate(time.Minute)
	record(t, st, minutes(ahead, 5)...)
	s.Poke()
	testutil.WaitFor(t, "the readings stamped a year ahead sent", func() bool { return s.Status().Sent == 10 })

	clock.Store(truth.UnixNano()) // set right
	right := truth.Add(-10 * time.Minute).Truncate(time.Minute)
	rs := minutes(right, 5)
	rs = append(rs, sensors.Reading{Zone: "Porch", Measurement: sensors.Temperature, Value: 7, Time: truth.Add(2 * time.Minute).Truncate(time.Second), Source: "fast"})
	record(t, st, rs...)
	s.Poke()
	testutil.WaitFor(t, "the readings recorded once the clock is right sent", func() bool { return s.Status().Sent == 20 })

	// Time goes on: the fast device's reading is due, and more readings
	// come.
	for i := 1; i <= 6; i++ {
		clock.Store(truth.Add(time.Duration(i) * time.Minute).UnixNano())
		record(t, st, sensors.Reading{Zone: "Cabin", Measurement: sensors.Temperature, Value: 20, Time: truth.Add(time.Duration(i-1) * time.Minute).Truncate(time.Second), Source: "test"},
			sensors.Reading{Zone: "Porch", Measurement: sensors.Temperature, Value: 7, Time: truth.Add(time.Duration(i+2) * time.Minute).Truncate(time.Second), Source: "fast"})
		s.Poke()
		time.Sleep(300 * time.Millisecond)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if _, n := r.samples(t); n >= 30 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Second)
	seen, n := r.samples(t)
	if n != 30 || len(seen) != 30 {
		t.Errorf("%d samples taken, %d different; want the 30 due once each (10 ahead, 10 once the clock was right, 4 of the fast device's, 6 others after); status %+v", n, len(seen), s.Status())
	}
	porch := 0
	for k := range seen {
		if strings.Contains(k, "zone=Porch") {
			porch++
		}
	}
	if porch != 4 {
		t.Errorf("%d of the fast device's readings taken, want the 4 due (the others stamped ahead of the clock less the delay)", porch)
	}
}
