package ingest

import (
	"time"

	"github.com/climated/climated/mqtt/decode"
)

// maxPending bounds the devices whose battery or signal values wait for a
// zone; beyond it the one heard of first is dropped.
const maxPending = 256

// pending keeps, for each device that auto_zone has not placed yet
// because it sent only battery or signal values, the latest of those
// values with the time they came, so that the zone its first climate
// value makes starts with them: a Shelly Plus H&T publishes
// devicepower:0 before temperature:0 on waking, and a node's retained
// signal can come before its temperature (the corpus's
// mqttui_co2_rssi_retained). Passing BLE beacons that never send a
// climate value stay until maxPending newer devices push them out. Run's
// goroutine alone uses it; the zero value is ready.
type pending struct {
	vals  map[deviceKey][]decode.Value
	order []deviceKey // first heard of first
}

// add remembers vs of key, each at its own time or at.
func (p *pending) add(key deviceKey, vs []decode.Value, at time.Time) {
	if p.vals == nil {
		p.vals = make(map[deviceKey][]decode.Value)
	}
	old, known := p.vals[key]
	if !known {
		if len(p.order) >= maxPending {
			delete(p.vals, p.order[0])
			p.order = append(p.order[:0], p.order[1:]...)
		}
		p.order = append(p.order, key)
	}
	for _, v := range vs {
		if v.Time.IsZero() {
			v.Time = at
		}
		old = replaceValue(old, v)
	}
	p.vals[key] = old
}

// replaceValue puts v in vs in place of the value of its measurement and
// probe, if any.
func replaceValue(vs []decode.Value, v decode.Value) []decode.Value {
	for i := range vs {
		if vs[i].Measurement == v.Measurement && vs[i].Probe == v.Probe {
			vs[i] = v
			return vs
		}
	}
	return append(vs, v)
}

// pop returns what waits for key and removes it.
func (p *pending) pop(key deviceKey) []decode.Value {
	vs, ok := p.vals[key]
	if !ok {
		return nil
	}
	delete(p.vals, key)
	for i, k := range p.order {
		if k == key {
			p.order = append(p.order[:i], p.order[i+1:]...)
			break
		}
	}
	return vs
}
