package mqtt

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

var errOffline = errors.New("device reports offline")

type deviceKey struct {
	mapping int
	name    string
}

// device is what the ingest remembers of one device of one mapping.
type device struct {
	zone      string
	heard     bool      // a message of it has been taken in this run
	rain      float64   // last cumulative rain total,
	rainSeen  bool      // if any
	when      time.Time // latest climated state time
	rainState string    // latest climated Rain with its sums
	status    sensors.Status
	touched   bool // in the current batch's report list
}

// batch is what one drain collects.
type batch struct {
	readings []sensors.Reading
	touched  []*device
}

func (b *batch) touch(d *device) {
	if !d.touched {
		d.touched = true
		b.touched = append(b.touched, d)
	}
}

// process decodes one message and appends its readings to b.
func (in *Ingest) process(item inbound, b *batch) {
	topic, payload := item.msg.Topic, item.msg.Payload
	res := in.decoders[item.mapping].Decode(topic, payload)
	if res.Ignored {
		// Bridge logs, device info, other components: expected, so only
		// at debug level.
		in.stats.ignored.Add(1)
		in.note(slog.LevelDebug, "topic not used by format "+in.mappings[item.mapping].Format, topic, payload, nil, item.at)
		return
	}
	dev := in.device(item.mapping, &res)
	if res.Err != nil {
		in.stats.badPayload.Add(1)
		in.warn("bad payload dropped", topic, payload, res.Err, item.at)
		if dev != nil {
			dev.fail(res.Err, item.at)
			b.touch(dev)
		}
		return
	}
	for _, p := range res.Problems {
		in.stats.badValues.Add(1)
		in.warn("bad value dropped", topic, payload, p, item.at)
	}
	if dev == nil {
		in.stats.noZone.Add(1)
		if len(res.Values) > 0 {
			in.warn("device feeds no zone", topic, payload,
				fmt.Errorf("device %q: name it under devices, or set zone or auto_zone", res.Device), item.at)
		}
		return
	}
	defer b.touch(dev)
	prevRain := dev.rainState
	if res.RainState != "" && !res.Time.Before(dev.when) {
		// Also from a state skipped below as not newer: the hub publishes
		// its zone again, same When, as the rain sums slide.
		dev.rainState = res.RainState
	}
	if res.Availability != decode.AvailabilityUnknown {
		dev.available(res.Availability, item.at)
	}
	if item.msg.Retained && dev.heard {
		// The broker repeats retained messages at every subscription.
		in.stats.replayed.Add(1)
		return
	}
	t := item.at
	if !res.Time.IsZero() {
		if !res.Time.After(dev.when) {
			in.stats.replayed.Add(1)
			return
		}
		dev.when, t = res.Time, res.Time
	}
	in.stats.decoded.Add(1)
	dev.heard = dev.heard || len(res.Values) > 0
	in.take(item, &res, dev, t, prevRain, b)
}

// take turns the values of res into readings of dev at t, appends them to
// b and updates dev's status.
func (in *Ingest) take(item inbound, res *decode.Result, dev *device, t time.Time, prevRain string, b *batch) {
	var firstErr error
	if len(res.Problems) > 0 {
		firstErr = res.Problems[0]
	}
	n := len(b.readings)
	for _, v := range res.Values {
		val := v.Value
		switch {
		case v.Counter:
			var ok bool
			if val, ok = dev.rainDelta(val, item.msg.Retained); !ok {
				continue
			}
		case v.Measurement == sensors.Rain && item.msg.Retained:
			continue // an amount already counted when it was new
		case v.Measurement == sensors.Rain && res.RainState != "" && res.RainState == prevRain:
			continue // the same interval, in a state that another measurement renewed
		}
		r := sensors.Reading{Zone: dev.zone, Measurement: v.Measurement, Value: val, Time: t, Source: dev.status.Source}
		if err := r.Validate(); err != nil {
			in.stats.badValues.Add(1)
			in.warn("bad value dropped", item.msg.Topic, item.msg.Payload, err, item.at)
			firstErr = err
			continue
		}
		b.readings = append(b.readings, r)
	}
	if len(b.readings) > n {
		dev.status.LastSeen = t
	}
	if firstErr != nil {
		dev.fail(firstErr, item.at)
	} else if len(b.readings) > n && !errors.Is(dev.status.Err, errOffline) {
		dev.status.Err = nil
	}
}

// device finds or places the device of res; nil means it feeds no zone.
func (in *Ingest) device(mapping int, res *decode.Result) *device {
	if res.Device == "" {
		return nil
	}
	key := deviceKey{mapping, res.Device}
	if d, ok := in.devices[key]; ok {
		return d
	}
	if len(in.devices) >= maxDevices {
		return nil
	}
	m := &in.mappings[mapping]
	zone, auto := m.zoneFor(res.Device)
	if zone == "" {
		return nil
	}
	if auto && !in.Feeds(zone) {
		// A zone of its own only for a device that measures the climate:
		// not for a passing phone's BLE beacon, and within the bound.
		if !climate(res.Values) || in.autoZones >= in.opts.MaxAutoZones {
			return nil
		}
		in.autoZones++
		in.log.Info("mqtt: new zone from a device", "zone", zone, "device", res.Device, "format", m.Format, "topic", m.Topic)
	}
	in.addZone(zone)
	d := &device{zone: zone, status: sensors.Status{
		Source: "mqtt/" + m.Format + "/" + res.Device,
		Zones:  []string{zone},
	}}
	in.devices[key] = d
	return d
}

// climate reports whether vs hold a measurement of the room, not only of
// the device's health.
func climate(vs []decode.Value) bool {
	for _, v := range vs {
		if info, ok := sensors.Lookup(v.Measurement); ok && info.Kind != sensors.Health {
			return true
		}
	}
	return false
}

func (d *device) fail(err error, at time.Time) {
	d.status.Err, d.status.ErrTime = err, at
}

func (d *device) available(a decode.Availability, at time.Time) {
	switch {
	case a == decode.Offline:
		d.fail(errOffline, at)
	case errors.Is(d.status.Err, errOffline):
		d.status.Err = nil
	}
}

// rainDelta turns a cumulative rain total into the rain since the previous
// total: the first total (and a retained one) only sets the base; an
// increase is rain; a decrease means the counter restarted from zero
// (new batteries, a wrap), so the new total is the rain since then.
func (d *device) rainDelta(total float64, retained bool) (float64, bool) {
	if retained && d.rainSeen {
		return 0, false
	}
	prev, seen := d.rain, d.rainSeen
	d.rain, d.rainSeen = total, true
	switch {
	case retained || !seen:
		return 0, false
	case total >= prev:
		return total - prev, true
	default:
		return total, true
	}
}
