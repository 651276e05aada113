package decode

import (
	"fmt"
	"time"

	"github.com/climated/climated/sensors"
)

// KeyAmounts is the key of a climated state under which another hub sends
// the amounts (rain) of the day before its When, each measurement as
// {"from": Unix time, "log": [[Unix time, value], …]}: every nonzero
// value after from, in time order, each the total since the entry before
// it (since from for the first). A hub that missed some of that day (it
// started later, or was off) records what it lacks from it; see
// Value.Since.
const KeyAmounts = "amounts"

// amounts adds the values of the state's amount logs, each with its own
// time and the start of the interval it totals, and reports which
// measurements had a log.
func (d *climated) amounts(r *Result, o object) map[sensors.Measurement]bool {
	logs, ok := o[KeyAmounts].(object)
	if !ok {
		if _, present := o[KeyAmounts]; present {
			r.problem(KeyAmounts, fmt.Errorf("want an object, got %s", kind(o[KeyAmounts])))
		}
		return nil
	}
	have := map[sensors.Measurement]bool{}
	for name, raw := range logs {
		m := sensors.Measurement(name)
		info, known := sensors.Lookup(m)
		path := KeyAmounts + "." + name
		switch {
		case !known || info.Kind != sensors.Amount:
			r.problem(path, fmt.Errorf("%q is not an amount of the catalogue", name))
			continue
		case d.configured(m):
			continue
		}
		have[m] = true
		d.amountLog(r, m, path, raw)
	}
	return have
}

// amountLog adds the entries of one measurement's log.
func (d *climated) amountLog(r *Result, m sensors.Measurement, path string, raw any) {
	l, ok := raw.(object)
	if !ok {
		r.problem(path, fmt.Errorf("want an object, got %s", kind(raw)))
		return
	}
	since, err := unixTime(l["from"])
	if err != nil {
		r.problem(path+".from", err)
		return
	}
	entries, ok := l["log"].([]any)
	if !ok {
		r.problem(path+".log", fmt.Errorf("want an array, got %s", kind(l["log"])))
		return
	}
	for i, e := range entries {
		at := fmt.Sprintf("%s.log[%d]", path, i)
		t, v, err := amountEntry(e)
		if err == nil && !t.After(since) {
			err = fmt.Errorf("time %d is not after %d, the entry before it", t.Unix(), since.Unix())
		}
		if err != nil {
			r.problem(at, err)
			return // the entries after it total from an unknown start
		}
		n := len(r.Values)
		r.add(m, v, "", at)
		if len(r.Values) == n {
			return
		}
		r.Values[n].Time, r.Values[n].Since = t, since
		since = t
	}
}

// amountEntry reads one [time, value] pair of a log.
func amountEntry(e any) (time.Time, float64, error) {
	pair, ok := e.([]any)
	switch {
	case !ok:
		return time.Time{}, 0, fmt.Errorf("want [time, value], got %s", kind(e))
	case len(pair) != 2:
		return time.Time{}, 0, fmt.Errorf("want [time, value], got %d elements", len(pair))
	}
	t, err := unixTime(pair[0])
	if err != nil {
		return time.Time{}, 0, fmt.Errorf("time: %w", err)
	}
	v, err := number(pair[1])
	if err != nil {
		return time.Time{}, 0, fmt.Errorf("value: %w", err)
	}
	return t, v, nil
}
