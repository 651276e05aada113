package decode

import (
	"fmt"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
)

// climated decodes another climated hub's state topics,
// <prefix>/<zone slug>/state, whose payload is the zone's get_climate
// object plus "zone", its name. The device is that zone name. Every
// measurement key is taken, stamped with its own time from "times"
// (measurement → Unix time of its latest reading) where given, else with
// the zone's When (hubs before "times"); derived keys
// (min_temp, trends, rain sums …) are left for this hub to derive from the
// readings, except that Rain with its sums makes RainState. A state with
// "amounts" (KeyAmounts) carries the day's rain itself, so that this hub
// can fill in what it missed; its Rain key is then taken only when it is
// zero, as a sign of life of a dry gauge. The hub's
// <prefix>/status (online, or offline from its clean stop or its last
// will) is the availability of all its zones: Result.Hub. Other topics
// under the prefix are ignored, its alerts'
// <prefix>/alerts/<rule>/<zone>/state (ON or OFF) among them.
type climated struct{ fieldDecoder }

// Bounds of a believable When: not before 2000, not after 3000.
const minWhen, maxWhen = 946684800, 32503680000

func (*climated) Format() string { return Climated }

func (d *climated) Decode(topic string, payload []byte) Result {
	segs := strings.Split(topic, "/")
	n := len(segs)
	if n >= 2 && segs[n-1] == "status" {
		r := availabilityOf("", payload)
		r.Hub = strings.Join(segs[:n-1], "/")
		return r
	}
	if n < 2 || segs[n-1] != "state" || isAlertState(segs, payload) {
		return ignored("")
	}
	r := Result{Device: segs[n-2]}
	o, err := parseObject(payload)
	if err != nil {
		return r.fail("%w", err)
	}
	if z, ok := o["zone"].(string); ok && z != "" {
		r.Device = z
	}
	if raw, ok := o[sensors.KeyWhen]; ok {
		w, err := unixTime(raw)
		if err != nil {
			return r.fail("When: %w", err)
		}
		r.Time = w
	}
	if rain, ok := o[string(sensors.Rain)]; ok {
		r.RainState = fmt.Sprint(rain, "/", o[sensors.KeySumRain1], "/", o[sensors.KeySumRain24])
	}
	d.applyJSON(&r, o)
	d.measurements(&r, o, d.amounts(&r, o))
	markSimulated(&r, o)
	return r
}

// KeySimulated is the key of a climated state that lists the zone's
// measurements whose values are simulated (the demo house's): another hub
// that follows it keeps them simulated, as sensors.Simulated tells them.
const KeySimulated = "simulated"

// markSimulated marks the values of r whose measurement the state lists
// under KeySimulated.
func markSimulated(r *Result, o object) {
	list, _ := o[KeySimulated].([]any)
	if len(list) == 0 {
		return
	}
	sim := make(map[sensors.Measurement]bool, len(list))
	for _, m := range list {
		if s, ok := m.(string); ok {
			sim[sensors.Measurement(s)] = true
		}
	}
	for i := range r.Values {
		r.Values[i].Simulated = sim[r.Values[i].Measurement]
	}
}

// isAlertState says whether a state topic is an alert's,
// <prefix>/alerts/<rule>/<zone>/state, whose payload is ON or OFF, not a
// zone's JSON.
func isAlertState(segs []string, payload []byte) bool {
	n := len(segs)
	p := strings.TrimSpace(string(payload))
	return n >= 5 && segs[n-4] == "alerts" && (p == "ON" || p == "OFF")
}

// measurements adds the state's value of every measurement of the
// catalogue that no field mapping reads, each with its own time from
// "times" where the state has one. Of a measurement in logged (whose
// amounts came as a log) only a zero is taken: a nonzero one is in the log.
func (d *climated) measurements(r *Result, o object, logged map[sensors.Measurement]bool) {
	times, _ := o["times"].(object)
	for _, m := range sensors.Measurements() {
		raw, ok := o[string(m)]
		if !ok || raw == nil || d.configured(m) {
			continue
		}
		v, err := number(raw)
		switch {
		case err != nil:
			r.problem(string(m), err)
			continue
		case logged[m] && v != 0:
			continue
		}
		n := len(r.Values)
		r.add(m, v, "", string(m))
		if t, ok := times[string(m)]; ok && len(r.Values) > n {
			if w, err := unixTime(t); err != nil {
				r.problem("times."+string(m), err)
			} else {
				r.Values[n].Time = w
			}
		}
	}
}

// unixTime reads a believable Unix time in seconds.
func unixTime(raw any) (time.Time, error) {
	w, err := number(raw)
	switch {
	case err != nil:
		return time.Time{}, err
	case w < minWhen || w > maxWhen:
		return time.Time{}, fmt.Errorf("%g is not a plausible Unix time", w)
	}
	return time.Unix(int64(w), 0), nil
}
