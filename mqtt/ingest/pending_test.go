package ingest

import (
	"testing"
	"time"

	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

// What waits for a zone is bounded: beyond maxPending devices the one
// heard of first is dropped; a device's newer value of a measurement
// replaces the older, stamped with when it came.
func TestPendingIsBounded(t *testing.T) {
	var p pending
	t0 := time.Unix(1796036400, 0)
	beacon := func(i int) deviceKey { return deviceKey{0, string(rune('A'+i%26)) + string(rune('a'+i/26))} }
	for i := range maxPending + 44 {
		p.add(beacon(i), []decode.Value{{Measurement: sensors.RFStatus, Value: 70}}, t0)
	}
	if len(p.vals) != maxPending || len(p.order) != maxPending {
		t.Fatalf("%d devices wait (%d in order), want the bound %d", len(p.vals), len(p.order), maxPending)
	}
	if vs := p.pop(beacon(43)); vs != nil {
		t.Errorf("the 44th device heard of still waits: %v", vs)
	}
	k := beacon(44)
	p.add(k, []decode.Value{{Measurement: sensors.RFStatus, Value: 60}, {Measurement: sensors.BatteryPercent, Value: 90}}, t0.Add(time.Minute))
	vs := p.pop(k)
	if len(vs) != 2 || vs[0].Value != 60 || !vs[0].Time.Equal(t0.Add(time.Minute)) || vs[1].Value != 90 {
		t.Errorf("device 44 gives %+v, want its latest rf_status 60 and battery 90 at t0+1m", vs)
	}
	if len(p.vals) != maxPending-1 || len(p.order) != maxPending-1 || p.pop(k) != nil {
		t.Errorf("a device popped still waits: %d, %d", len(p.vals), len(p.order))
	}
}
