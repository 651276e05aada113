package mqtt

import (
	"errors"
	"strings"
)

// maxTopic is the longest topic MQTT can carry (a two-byte length).
const maxTopic = 65535

// ValidFilter checks a subscription filter against MQTT 3.1.1 §4.7: '#'
// only as the whole last level, '+' only as a whole level.
func ValidFilter(f string) error {
	if err := validName(f); err != nil {
		return err
	}
	levels := strings.Split(f, "/")
	for i, l := range levels {
		switch {
		case l == "#" && i != len(levels)-1:
			return errors.New("'#' must be the last level")
		case l != "#" && l != "+" && strings.ContainsAny(l, "#+"):
			return errors.New("'+' and '#' must fill a whole level")
		}
	}
	return nil
}

// ValidTopic checks a topic to publish on: no wildcards.
func ValidTopic(t string) error {
	if err := validName(t); err != nil {
		return err
	}
	if strings.ContainsAny(t, "#+") {
		return errors.New("a topic to publish on cannot hold '+' or '#'")
	}
	return nil
}

func validName(s string) error {
	switch {
	case s == "":
		return errors.New("empty")
	case len(s) > maxTopic:
		return errors.New("longer than 65535 bytes")
	case strings.ContainsRune(s, 0):
		return errors.New("contains a NUL character")
	}
	return nil
}

// Matches reports whether topic matches filter. As the standard says,
// "a/#" also matches "a", and a wildcard in the first level does not
// match topics that start with '$' (the broker's own).
func Matches(filter, topic string) bool {
	if strings.HasPrefix(topic, "$") && (strings.HasPrefix(filter, "+") || strings.HasPrefix(filter, "#")) {
		return false
	}
	for {
		f, frest, fmore := strings.Cut(filter, "/")
		if f == "#" {
			return true
		}
		t, trest, tmore := strings.Cut(topic, "/")
		if f != "+" && f != t {
			return false
		}
		switch {
		case !fmore && !tmore:
			return true
		case !tmore:
			return frest == "#"
		case !fmore:
			return false
		}
		filter, topic = frest, trest
	}
}
