package decode

import (
	"fmt"
	"strings"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// climated decodes another climated hub's state topics,
// <prefix>/<zone slug>/state, whose payload is the zone's get_climate
// object plus "zone", its name. The device is that zone name. Every
// measurement key is taken, stamped with its own time from "times"
// (measurement → Unix time of its latest reading) where given, else with
// the zone's When (hubs before "times"); derived keys
// (min_temp, trends, rain sums …) are left for this hub to derive from the
// readings, except that Rain with its sums makes RainState. The hub's
// <prefix>/status (online, or offline from its clean stop or its last
// will) is the availability of all its zones: Result.Hub. Other topics
// under the prefix are ignored.
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
	if n < 2 || segs[n-1] != "state" {
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
	if raw, ok := o[climate.KeyWhen]; ok {
		w, err := number(raw)
		switch {
		case err != nil:
			return r.fail("When: %w", err)
		case w < minWhen || w > maxWhen:
			return r.fail("When: %g is not a plausible Unix time", w)
		}
		r.Time = time.Unix(int64(w), 0)
	}
	if rain, ok := o[string(sensors.Rain)]; ok {
		r.RainState = fmt.Sprint(rain, "/", o[climate.KeySumRain1], "/", o[climate.KeySumRain24])
	}
	times, _ := o["times"].(object)
	d.applyJSON(&r, o)
	for _, m := range sensors.Measurements() {
		raw, ok := o[string(m)]
		if !ok || raw == nil || d.configured(m) {
			continue
		}
		v, err := number(raw)
		if err != nil {
			r.problem(string(m), err)
			continue
		}
		n := len(r.Values)
		r.add(m, v, "", string(m))
		if t, ok := times[string(m)]; ok && len(r.Values) > n {
			w, err := number(t)
			switch {
			case err != nil:
				r.problem("times."+string(m), err)
			case w < minWhen || w > maxWhen:
				r.problem("times."+string(m), fmt.Errorf("%g is not a plausible Unix time", w))
			default:
				r.Values[n].Time = time.Unix(int64(w), 0)
			}
		}
	}
	return r
}
