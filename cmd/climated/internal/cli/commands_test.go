package cli

import (
	"errors"
	"strings"
	"testing"
)

// TestWantsHelp: help asked for in any of the usual ways, but not after
// "--", where it is an argument.
func TestWantsHelp(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-h"}, true}, {[]string{"--db", "x", "-help"}, true}, {[]string{"--help"}, true},
		{nil, false}, {[]string{"--", "--help"}, false}, {[]string{"help"}, false},
	} {
		if got := WantsHelp(c.args); got != c.want {
			t.Errorf("WantsHelp(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// TestParseFlags: a stray argument is wrong use, with the usage line;
// help is printed on stdout and is ErrHelp.
func TestParseFlags(t *testing.T) {
	var stdout, stderr strings.Builder
	fs := NewFlagSet("scan", &stderr)
	fs.String("bus", "1", "I²C bus `N`")
	if err := ParseFlags(fs, []string{"--bus", "2", "extra"}, &stdout, &stderr); !errors.Is(err, ErrUsage) || !strings.Contains(stderr.String(), `unexpected argument "extra"`) || !strings.Contains(stderr.String(), "usage: climated scan [--bus N]") {
		t.Errorf("stray argument: %v, stderr %q", err, stderr.String())
	}
	fs = NewFlagSet("scan", &stderr)
	fs.String("bus", "1", "I²C bus `N`")
	if err := ParseFlags(fs, []string{"--help"}, &stdout, &stderr); !errors.Is(err, ErrHelp) || !strings.Contains(stdout.String(), "flags:") || !strings.Contains(stdout.String(), "-bus N") {
		t.Errorf("--help: %v, stdout %q", err, stdout.String())
	}
}
