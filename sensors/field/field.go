// Package field is the error of one field of a configuration: where it is,
// as the file spells the key (mqtt.subscriptions[2].zone), beside the
// message that says what is wrong with it. Validators return them from the
// leaf up, each level adding its part of the path with Wrap, so that the
// loader finds the key's line in the file without reading the message.
package field

import (
	"errors"
	"fmt"
	"strings"
)

// Error is what is wrong with one field.
type Error struct {
	// Path is the key as the file spells it, from the top:
	// mqtt.subscriptions[2].topic, sensors[0].chip; "" when not known.
	Path string
	// Line is the key's line in the file, set by the loader; 0 when not
	// known.
	Line int
	text string
	err  error
}

// Error is the message alone, which names the field in its own words
// (the loader puts the file and the line before it).
func (e *Error) Error() string { return e.text }

// Unwrap is the cause the message was made from, if any.
func (e *Error) Unwrap() error { return e.err }

// Errorf is an error of the field at path; the message is formatted as
// fmt.Errorf does (with %w) and names the field as the reader should see it.
func Errorf(path, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Path: path, text: err.Error(), err: errors.Unwrap(err)}
}

// At is an error of the field at path, found on line, with msg as it is:
// for a loader that knows the place already.
func At(path string, line int, msg string) *Error {
	return &Error{Path: path, Line: line, text: msg}
}

// Wrap puts err under prefix (a key, or a key and an index: mqtt,
// subscriptions[2]): the path becomes prefix.path, the message prefix, sep
// and the message. An error that is not an *Error becomes one of prefix.
// Each error of a join is wrapped on its own.
func Wrap(prefix, sep string, err error) error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var errs []error
		for _, e := range j.Unwrap() {
			errs = append(errs, Wrap(prefix, sep, e))
		}
		return errors.Join(errs...)
	}
	fe, ok := err.(*Error)
	if !ok {
		return &Error{Path: prefix, text: prefix + sep + err.Error(), err: err}
	}
	return &Error{Path: Join(prefix, fe.Path), Line: fe.Line, text: prefix + sep + fe.text, err: fe.err}
}

// Join is the path of child under parent: parent.child, or parent[i]…
// when child starts with an index.
func Join(parent, child string) string {
	switch {
	case parent == "":
		return child
	case child == "":
		return parent
	case strings.HasPrefix(child, "["):
		return parent + child
	}
	return parent + "." + child
}

// All lists the field errors in err (one, or those of a join), each
// other error as an *Error without a path.
func All(err error) []*Error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*Error
		for _, e := range j.Unwrap() {
			out = append(out, All(e)...)
		}
		return out
	}
	var fe *Error
	if errors.As(err, &fe) && fe.text == err.Error() {
		return []*Error{fe}
	}
	return []*Error{{Path: pathOf(err), text: err.Error(), err: err}}
}

// pathOf is the path of the field error err wraps, when the wrapping
// (fmt.Errorf("…: %w")) only said more about it.
func pathOf(err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Path
	}
	return ""
}

// Located is e at line, for the loader.
func (e *Error) Located(line int) *Error {
	c := *e
	c.Line = line
	return &c
}
