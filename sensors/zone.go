package sensors

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxZoneName bounds a zone's name, in characters.
const MaxZoneName = 64

// CheckZone says what is wrong with z as a zone's name: a zone is named
// in JSON, in MQTT topics and in Prometheus labels, which take only valid
// UTF-8, and in log lines and tables a person reads.
func CheckZone(z string) error {
	switch {
	case strings.TrimSpace(z) != z || z == "":
		return errors.New("empty or with surrounding spaces")
	case !utf8.ValidString(z):
		return errors.New("not UTF-8")
	case strings.IndexFunc(z, unicode.IsControl) >= 0:
		return errors.New("contains control characters")
	case utf8.RuneCountInString(z) > MaxZoneName:
		return fmt.Errorf("longer than %d characters", MaxZoneName)
	}
	return nil
}
