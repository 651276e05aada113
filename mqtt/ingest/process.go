package ingest

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/climated/climated/history/climate"
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
	// seen are the climated states' own times and values of each
	// measurement taken, so that a value the state merely repeats is not
	// taken again.
	seen map[sensors.Measurement]timedValue
	// logged is what this hub recorded of the zone's amounts, for another
	// hub's amount logs (see unrecorded).
	logged  map[sensors.Measurement][]climate.Point
	status  sensors.Status
	touched bool                  // in the current batch's report list
	gives   []sensors.Measurement // what it gave its zone so far
}

// timedValue is a value and the time it was measured at.
type timedValue struct {
	t time.Time
	v float64
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
	res := in.decoders[item.mapping].Decode(item.msg.Topic, item.msg.Payload)
	dropAhead(&res, item.at)
	if in.notReadings(item, res, b) {
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
	key := deviceKey{item.mapping, res.Device}
	if dev == nil {
		in.stats.noZone.Add(1)
		if errors.Is(why, errNoClimate) {
			in.waiting.add(key, main, item.at)
		}
		if len(main) > 0 {
			in.warnDevice("device feeds no zone", item, res.Device, why)
		}
		in.addProbeReadings(item, probes, b)
		return
	}
	if len(in.waiting.vals) > 0 {
		main = append(in.waiting.pop(key), main...)
	}
	defer b.touch(dev)
	t, sameRain, ok := in.stamp(item, &res, dev)
	if !ok {
		in.stats.replayed.Add(1)
		return
	}
	in.stats.decoded.Add(1)
	var firstErr error
	if len(res.Problems) > 0 {
		firstErr = res.Problems[0]
	}
	in.addReadings(item, main, dev, t, sameRain, firstErr, b)
	in.addProbeReadings(item, probes, b)
}

// notReadings handles a message that carries no readings: one the format
// does not use, or another hub's availability. It reports whether it did.
func (in *Ingest) notReadings(item inbound, res decode.Result, b *batch) bool {
	switch {
	case res.Ignored:
		// Bridge logs, device info, other components: expected, so only
		// at debug level.
		in.stats.ignored.Add(1)
		in.note(slog.LevelDebug, "topic not used by format "+in.mappings[item.mapping].Format, item.msg.Topic, item.msg.Payload, nil, item.at)
		return true
	case res.Hub != "":
		in.hubAvailable(item, res.Hub, res.Availability, b)
		return true
	}
	return false
}

// stamp takes what a message says about dev beside its values (rain
// state, availability) and returns the time its readings get; ok is false
// when the message repeats what dev already took (a retained replay, or a
// state not newer than the last). sameRain says a climated state repeats
// the previous Rain interval, which another measurement renewed.
func (in *Ingest) stamp(item inbound, res *decode.Result, dev *device) (t time.Time, sameRain, ok bool) {
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
		return time.Time{}, false, false
	}
	t = item.at
	if !res.Time.IsZero() {
		switch {
		case res.Time.After(dev.when):
			dev.when = res.Time
		case !res.Time.Equal(dev.when) || !ownTimes(res.Values):
			return time.Time{}, false, false
		}
		// The same When again: another hub's second state within one
		// second, whose values' own times say which are new (fresh).
		t = res.Time
	}
	return t, res.RainState != "" && res.RainState == prevRain, true
}

func isAmount(m sensors.Measurement) bool {
	info, _ := sensors.Lookup(m)
	return info.Kind == sensors.Amount
}

// ownTimes reports whether the values carry times of their own.
func ownTimes(vs []decode.Value) bool {
	for _, v := range vs {
		if !v.Time.IsZero() {
			return true
		}
	}
	return false
}

// admit returns the value and time v is recorded with, stamped t unless
// it has its own time; ok is false when v must not be recorded: a
// measurement's own time not later than the one seen, a rain counter's
// first or replayed value, a retained rain amount (counted when it was
// new), or the same rain interval again (sameRain).
func (d *device) admit(v decode.Value, t time.Time, retained, sameRain bool) (val float64, at time.Time, ok bool) {
	val, at = v.Value, t
	if !v.Time.IsZero() {
		// The measurement's own time (climated), which makes sameRain
		// moot. Seen even when skipped below: a retained Rain amount was
		// counted before a restart and must not be counted again by the
		// next state.
		if val, ok = d.fresh(v); !ok {
			return 0, at, false
		}
		at = v.Time
	}
	switch {
	case v.Counter:
		val, ok = d.rainDelta(val, retained)
		return val, at, ok
	case v.Measurement == sensors.Rain && retained && (val != 0 || v.Time.IsZero()):
		// An amount already counted when it was new. A dry reading with
		// its own time (another hub's latest) is taken: it adds nothing,
		// and says when the gauge was last heard.
		return 0, at, false
	case v.Measurement == sensors.Rain && sameRain && v.Time.IsZero():
		return 0, at, false // the same interval, in a state that another measurement renewed
	}
	return val, at, true
}

// fresh reports whether v, a value with its own time, is new, and the
// value to record. A later time is new. At the same whole second (the
// other hub got two readings in one second and published between them)
// a gauge that changed is new, and an amount that grew is new by its
// growth, since the other hub added the two up.
func (d *device) fresh(v decode.Value) (float64, bool) {
	last, seen := d.seen[v.Measurement]
	val := v.Value
	switch {
	case !seen || v.Time.After(last.t):
	case !v.Time.Equal(last.t) || v.Value == last.v:
		return 0, false
	case isAmount(v.Measurement):
		if v.Value < last.v {
			return 0, false
		}
		val = v.Value - last.v
	}
	if d.seen == nil {
		d.seen = make(map[sensors.Measurement]timedValue)
	}
	d.seen[v.Measurement] = timedValue{v.Time, v.Value}
	return val, true
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

// addReadings turns vs into readings of dev at t, appends them to b and updates
// dev's status. sameRain says a climated state repeats the previous Rain
// interval, which another measurement renewed.
func (in *Ingest) addReadings(item inbound, vs []decode.Value, dev *device, t time.Time, sameRain bool, firstErr error, b *batch) {
	n := len(b.readings)
	for _, v := range vs {
		val, at, ok := v.Value, v.Time, false
		if v.Since.IsZero() {
			val, at, ok = dev.admit(v, t, item.msg.Retained, sameRain)
		} else {
			val, ok = dev.unrecorded(v, in.opts.Recorded)
		}
		if !ok {
			continue
		}
		r := sensors.Reading{Zone: dev.zone, Measurement: v.Measurement, Value: val, Time: at, Source: dev.status.Source}
		if v.Simulated {
			// Another hub's demo house: simulated here too.
			r.Source = sensors.SimulatedPrefix + r.Source
		}
		if err := checkValue(r); err != nil {
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

// checkValue is sensors.Reading.Validate for a reading of a placed
// device, whose zone and source checkDevice took once: its time and value.
func checkValue(r sensors.Reading) error {
	if r.Time.IsZero() {
		return fmt.Errorf("reading %s/%s from %q: no time", r.Zone, r.Measurement, r.Source)
	}
	if err := r.Measurement.Check(r.Value); err != nil {
		return fmt.Errorf("reading %s from %q: %w", r.Zone, r.Source, err)
	}
	return nil
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
