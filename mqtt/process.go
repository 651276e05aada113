package mqtt

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

var errOffline = sensors.ErrOffline

type deviceKey struct {
	mapping int
	name    string
}

// device is what the ingest remembers of one device (or one probe of a
// device) of one mapping.
type device struct {
	zone string
	// topics are the topics whose values were taken in this run: a
	// retained message on one of them is the broker repeating it at a
	// re-subscription. Per topic, because ESPHome, Shelly and rtl_433
	// send one value per topic, each retained.
	topics    map[string]struct{}
	lastTopic string    // the latest of them: most devices have one
	rain      float64   // last cumulative rain total,
	rainSeen  bool      // if any
	when      time.Time // latest climated state time
	rainState string    // latest climated Rain with its sums
	// times are the climated states' own times of each measurement taken,
	// so that a value the state merely repeats is not taken again.
	times   map[sensors.Measurement]time.Time
	status  sensors.Status
	touched bool                  // in the current batch's report list
	gives   []sensors.Measurement // what it gave its zone so far
}

// maxTopicsPerDevice bounds the topics remembered per device; beyond it a
// retained message counts as a replay.
const maxTopicsPerDevice = 64

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
	m := &in.mappings[item.mapping]
	res := in.decoders[item.mapping].Decode(topic, payload)
	if res.Ignored {
		// Bridge logs, device info, other components: expected, so only
		// at debug level.
		in.stats.ignored.Add(1)
		in.note(slog.LevelDebug, "topic not used by format "+m.Format, topic, payload, nil, item.at)
		return
	}
	if res.Hub != "" {
		in.hubAvailable(item, res.Hub, res.Availability, b)
		return
	}
	dev, why := in.place(item.mapping, res.Device, res.Values)
	if res.Err != nil {
		in.stats.badPayload.Add(1)
		in.warnDevice("bad payload dropped", item, res.Device, res.Err)
		if dev != nil {
			dev.fail(res.Err, item.at)
			b.touch(dev)
		}
		return
	}
	for _, p := range res.Problems {
		in.stats.badValues.Add(1)
		in.warnDevice("bad value dropped", item, res.Device, p)
	}
	main, probes := in.split(item, &res)
	if dev == nil {
		in.stats.noZone.Add(1)
		if len(main) > 0 {
			in.warnDevice("device feeds no zone", item, res.Device, why)
		}
		in.takeProbes(item, probes, b)
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
	if dev.replayed(item) {
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
	var firstErr error
	if len(res.Problems) > 0 {
		firstErr = res.Problems[0]
	}
	in.take(item, main, dev, t, res.RainState != "" && res.RainState == prevRain, firstErr, b)
	in.takeProbes(item, probes, b)
}

// replayed reports whether item is the broker repeating a retained
// message of a topic whose values d took in this run, and otherwise
// remembers the topic.
func (d *device) replayed(item inbound) bool {
	if item.msg.Topic == d.lastTopic {
		return item.msg.Retained
	}
	d.lastTopic = item.msg.Topic
	_, seen := d.topics[item.msg.Topic]
	if item.msg.Retained && (seen || len(d.topics) >= maxTopicsPerDevice) {
		return true
	}
	if !seen && len(d.topics) < maxTopicsPerDevice {
		if d.topics == nil {
			d.topics = make(map[string]struct{}, 1)
		}
		d.topics[item.msg.Topic] = struct{}{}
	}
	return false
}

// take turns vs into readings of dev at t, appends them to b and updates
// dev's status. sameRain says a climated state repeats the previous Rain
// interval, which another measurement renewed.
func (in *Ingest) take(item inbound, vs []decode.Value, dev *device, t time.Time, sameRain bool, firstErr error, b *batch) {
	n := len(b.readings)
	for _, v := range vs {
		val, at := v.Value, t
		if !v.Time.IsZero() {
			// The measurement's own time (climated): new only when later
			// than the one seen, which makes sameRain moot. Seen even when
			// skipped below: a retained Rain amount was counted before a
			// restart and must not be counted again by the next state.
			if !v.Time.After(dev.times[v.Measurement]) {
				continue
			}
			if dev.times == nil {
				dev.times = make(map[sensors.Measurement]time.Time)
			}
			dev.times[v.Measurement], at = v.Time, v.Time
		}
		switch {
		case v.Counter:
			var ok bool
			if val, ok = dev.rainDelta(val, item.msg.Retained); !ok {
				continue
			}
		case v.Measurement == sensors.Rain && item.msg.Retained:
			continue // an amount already counted when it was new
		case v.Measurement == sensors.Rain && sameRain && v.Time.IsZero():
			continue // the same interval, in a state that another measurement renewed
		}
		r := sensors.Reading{Zone: dev.zone, Measurement: v.Measurement, Value: val, Time: at, Source: dev.status.Source}
		if err := r.Validate(); err != nil {
			in.stats.badValues.Add(1)
			in.warnDevice("bad value dropped", item, dev.status.Source, err)
			firstErr = err
			continue
		}
		in.claim(dev, v.Measurement)
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

// hasRoomValue reports whether vs hold a measurement of the room, not only of
// the device's health.
func hasRoomValue(vs []decode.Value) bool {
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
	d.availableAs(a, errOffline, at)
}

// availableAs is available with the error that offline sets.
func (d *device) availableAs(a decode.Availability, offline error, at time.Time) {
	switch {
	case a == decode.Offline:
		d.fail(offline, at)
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

// noZoneError says why a device feeds no zone.
func noZoneError(device, why string) error {
	return fmt.Errorf("device %q: %s", device, why)
}
