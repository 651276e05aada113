package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Object is a decoded JSON object whose numbers are still text, so that one
// absurd number (1e999) spoils only its own field.
type object = map[string]any

// parseJSON decodes payload as one JSON value, numbers kept as json.Number.
func parseJSON(payload []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("not JSON: data after the first value")
	}
	return v, nil
}

// parseObject decodes payload as a JSON object.
func parseObject(payload []byte) (object, error) {
	v, err := parseJSON(payload)
	if err != nil {
		return nil, err
	}
	o, ok := v.(object)
	if !ok {
		return nil, fmt.Errorf("want a JSON object, got %s", kind(v))
	}
	return o, nil
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case []any:
		return "an array"
	case object:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// number reads v as a finite number. Devices send numbers as JSON numbers
// and, now and then, as strings ("21.5"); both are accepted.
func number(v any) (float64, error) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case string:
		s = strings.TrimSpace(x)
	case float64: // from callers that decoded without UseNumber
		s = strconv.FormatFloat(x, 'g', -1, 64)
	default:
		return 0, fmt.Errorf("want a number, got %s", kind(v))
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a finite number", excerpt(s, 24))
	}
	return f, nil
}

// errNoValue is a plain payload that says "no value now": ESPHome's None
// (since 2024.11) and nan (before) for a sensor without a reading, and a
// null. It is not a fault, so it is never reported as a problem.
var errNoValue = errors.New("no value")

// plainNumber reads a payload that is a bare number ("21.5", maybe quoted
// or surrounded by white space).
func plainNumber(payload []byte) (float64, error) {
	s := strings.TrimSpace(string(payload))
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	switch s {
	case "None", "nan", "NaN", "null":
		return 0, errNoValue
	}
	return number(s)
}

// lookup follows a dotted path through objects and arrays.
func lookup(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	for _, seg := range strings.Split(path, ".") {
		switch x := v.(type) {
		case object:
			var ok bool
			if v, ok = x[seg]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// availability reads an online/offline payload in any of the spellings
// devices use: online/offline, Online/Offline, true/false, and
// zigbee2mqtt's {"state":"online"}.
func availability(payload []byte) (Availability, error) {
	s := strings.TrimSpace(string(payload))
	if strings.HasPrefix(s, "{") {
		o, err := parseObject(payload)
		if err != nil {
			return AvailabilityUnknown, err
		}
		st, _ := o["state"].(string)
		s = st
	}
	switch strings.ToLower(strings.Trim(s, `"`)) {
	case "online", "true", "1":
		return Online, nil
	case "offline", "false", "0":
		return Offline, nil
	}
	return AvailabilityUnknown, fmt.Errorf("availability %q: want online or offline", excerpt(s, 24))
}

// availabilityOf is the Result of an availability topic of device.
func availabilityOf(device string, payload []byte) Result {
	r := Result{Device: device}
	a, err := availability(payload)
	if err != nil {
		return r.fail("%w", err)
	}
	r.Availability = a
	return r
}

// Excerpt shortens s to at most n bytes of valid UTF-8 for a log line,
// with control characters escaped.
func Excerpt(b []byte, n int) string { return excerpt(string(b), n) }

func excerpt(s string, n int) string {
	cut := len(s) > n
	if cut {
		end := 0
		for i := range s { // rune boundaries: never split a character
			if i > n {
				break
			}
			end = i
		}
		s = s[:end]
	}
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return '·'
		}
		return r
	}, s)
	if cut {
		s += "…"
	}
	return s
}
