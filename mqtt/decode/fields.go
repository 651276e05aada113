package decode

import (
	"errors"

	"github.com/climated/climated/sensors"
)

// fieldDecoder applies configured fields; every format embeds one, so that
// a configuration can add a value a format does not know or read a known
// one from elsewhere.
type fieldDecoder struct {
	fields []Field
}

// applyJSON reads every field whose path (not empty) is in doc.
func (d fieldDecoder) applyJSON(r *Result, doc any) {
	for _, f := range d.fields {
		if f.Path == "" {
			continue
		}
		// A null is "no value in this message", not a fault.
		if v, ok := lookup(doc, f.Path); ok && v != nil {
			d.apply(r, f, v, f.Path)
		}
	}
}

// applyNamed reads the fields whose path is name, for formats that send one
// value per topic (esphome); it reports whether any field matched.
func (d fieldDecoder) applyNamed(r *Result, name string, payload []byte) bool {
	matched := false
	for _, f := range d.fields {
		if f.Path != name {
			continue
		}
		matched = true
		v, err := plainNumber(payload)
		if err != nil {
			if !errors.Is(err, errNoValue) {
				r.problem(name, err)
			}
			continue
		}
		d.apply(r, f, v, name)
	}
	return matched
}

func (d fieldDecoder) apply(r *Result, f Field, raw any, name string) {
	v, err := number(raw)
	if err != nil {
		r.problem(name, err)
		return
	}
	if f.Counter {
		r.addCounter(v, f.Unit, name)
		return
	}
	r.add(f.Measurement, v, f.Unit, name)
}

// configured reports whether a field already gives m, so that the built-in
// name for m stands back.
func (d fieldDecoder) configured(m sensors.Measurement) bool {
	for _, f := range d.fields {
		if f.Measurement == m {
			return true
		}
	}
	return false
}

// builtin is one name a format uses for a measurement.
type builtin struct {
	key  string
	m    sensors.Measurement
	unit string
}

// applyBuiltins reads the format's own names from o, skipping measurements
// that a field configures or that an earlier name already gave. Problems
// name the key after prefix (a sub-object's path and a dot, or "").
func (d fieldDecoder) applyBuiltins(r *Result, o object, names []builtin, prefix string) {
	d.applyProbe(r, o, names, prefix, "")
}

// applyProbe is applyBuiltins for the values of one probe of the device;
// the first probe to give a measurement gives the device's own.
func (d fieldDecoder) applyProbe(r *Result, o object, names []builtin, prefix, probe string) {
	for _, b := range names {
		raw, ok := o[b.key]
		// A null is "no value in this message" (a device just paired, a
		// sensor between two readings), not a fault.
		if !ok || raw == nil || d.configured(b.m) || r.has(b.m, probe) {
			continue
		}
		v, err := number(raw)
		if err != nil {
			r.problem(prefix+b.key, err)
			continue
		}
		r.addProbe(b.m, v, b.unit, prefix+b.key, probe, probe != "" && !r.hasMain(b.m))
	}
}
