package main

import (
	"net/url"
	"testing"

	"github.com/climated/climated/mcp"
)

// TestExpandAsTheServerNamesIt: the script reads a zone's resources by
// the URIs the server itself makes of them, whatever the zone's name
// holds (url.PathEscape kept & : + = @ $, which the SDK's template match
// refuses).
func TestExpandAsTheServerNamesIt(t *testing.T) {
	for _, zone := range []string{"Garden", "Kid's room & attic", "Büro 2", "a+b=c@d:$"} {
		got := expand(mcp.URIMonthsTemplate, map[string]string{"zone": zone, "year": "2026"})
		if want := mcp.MonthsURI(zone, url.Values{"year": {"2026"}}); got != want {
			t.Errorf("months of %q: %s, the server names it %s", zone, got, want)
		}
		got = expand("climate://daily/{zone}{?from,to}", map[string]string{"zone": zone, "from": "7d"})
		if want := mcp.DailyURI(zone, url.Values{"from": {"7d"}}); got != want {
			t.Errorf("daily of %q: %s, the server names it %s", zone, got, want)
		}
	}
}
