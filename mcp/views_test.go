package mcp

import (
	"strings"
	"testing"

	"github.com/climated/climated/internal/weathercard"
)

// TestLean: a view's script loses its comment lines and indentation and
// nothing else; a stylesheet, its comments.
func TestLean(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"// head\n\"use strict\";\n(function () {\n  // why\n  const a = 1; // kept\n\n  return a;\n})();\n",
			"\"use strict\";\n(function () {\nconst a = 1; // kept\nreturn a;\n})();"},
		{"const s = \"// not a comment\";\n   //\nx()", "const s = \"// not a comment\";\nx()"},
		{"a\n/ b // a division, not a comment\n", "a\n/ b // a division, not a comment"},
	} {
		if got := lean(c.in); got != c.want {
			t.Errorf("lean(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"/* head\n   more */\n.a { b: c; }\n/* x */ .d { e: f; }\n", ".a { b: c; }\n.d { e: f; }"},
		{".a { b: c; }", ".a { b: c; }"},
		{"/* unended\n.a {}", "/* unended\n.a {}"},
	} {
		if got := leanCSS(c.in); got != c.want {
			t.Errorf("leanCSS(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// What lean may not meet: a string or template across lines.
	for name, js := range map[string]string{"client.js": viewPart("client.js"), "history.js": viewPart("history.js"),
		"house.js": viewPart("house.js"), "weather.js": weathercard.Script()} {
		if strings.Contains(js, "`") || strings.Contains(js, "\\\n") {
			t.Errorf("%s has a template or a string across lines: lean would change it", name)
		}
	}
	// The house view's own scripts come lean, the weather card's too.
	doc := views()[ViewHouseURI]
	for _, part := range []string{"climatedWeather", "W.values(", "host-context-changed"} {
		if !strings.Contains(doc, part) {
			t.Errorf("the house view lacks %q", part)
		}
	}
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "//") {
			t.Errorf("a comment line in the house view: %q", line)
			break
		}
	}
}
