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
	parsed := false
	for _, f := range d.fields {
		if f.Path == "" {
			v, err := plainNumber(payload)
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
		if v, ok := lookup(doc, f.Path); ok {
			d.apply(&r, f, v, f.Path)
		}
	}
	if len(r.Values) == 0 && len(r.Problems) == 0 {
		return r.fail("%w", errNoField)
	}
	return r
}
