package publish

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/mqtt"
)

// A log longer than maxAmountEntries is added up in steps, each timed at
// its last value, and loses nothing.
func TestCoalesceKeepsTheTotal(t *testing.T) {
	const from = 1_000_000
	var pts []climate.Point
	var total float64
	for i := 1; i <= 5400; i++ { // a station every 16 s for a day
		pts = append(pts, climate.Point{T: from + int64(i)*16, V: 0.1})
		total += 0.1
	}
	got := coalesce(pts, from, maxAmountEntries, 0.0001)
	if len(got) > maxAmountEntries {
		t.Fatalf("%d entries, want at most %d", len(got), maxAmountEntries)
	}
	var sum float64
	prev := int64(from)
	for _, p := range got {
		if p.T <= prev || (p.T-from)%16 != 0 {
			t.Fatalf("entry at %d after %d: not in order, or not a reading's time", p.T, prev)
		}
		prev, sum = p.T, sum+p.V
	}
	if math.Abs(sum-total) > 1e-6 || got[len(got)-1].T != pts[len(pts)-1].T {
		t.Errorf("coalesced total %v ending %d, want %v ending %d", sum, got[len(got)-1].T, total, pts[len(pts)-1].T)
	}
	// The day's log in a state stays far below the payload bound.
	l := amountLog{From: from}
	for _, p := range got {
		l.Log = append(l.Log, [2]float64{float64(p.T), p.V})
	}
	if b, _ := json.Marshal(l); len(b) > mqtt.DefaultMaxPayload/4 {
		t.Errorf("a day's log is %d bytes, more than a quarter of the %d a hub reads", len(b), mqtt.DefaultMaxPayload)
	}
	if short := coalesce(pts[:10], from, maxAmountEntries, 0.0001); len(short) != 10 {
		t.Errorf("a short log was changed: %d entries", len(short))
	}
}
