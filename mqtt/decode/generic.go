package decode

import "errors"

// generic decodes anything else through configured fields alone: a JSON
// path per measurement, or an empty path for a payload that is a plain
// number. The device is the topic.
type generic struct{ fieldDecoder }

func (*generic) Format() string { return Generic }

var errNoField = errors.New("none of the configured fields is in the payload")

func (d *generic) Decode(topic string, payload []byte) Result {
	r := Result{Device: topic}
	var doc any
	var jerr error
	parsed, present := false, false
	for _, f := range d.fields {
		if f.Path == "" {
			v, err := plainNumber(payload)
			if errors.Is(err, errNoValue) {
				return r // no value now, not a fault
			}
			if err != nil {
				r.problem("payload", err)
				continue
			}
			d.apply(&r, f, v, "payload")
			continue
		}
		if !parsed {
			doc, jerr = parseJSON(payload)
			parsed = true
		}
		if jerr != nil {
			return r.fail("%w", jerr)
		}
		v, ok := lookup(doc, f.Path)
		switch {
		case ok && v == nil:
			present = true // null: no value in this message
		case ok:
			d.apply(&r, f, v, f.Path)
		}
	}
	if len(r.Values) == 0 && len(r.Problems) == 0 && !present {
		return r.fail("%w", errNoField)
	}
	return r
}
