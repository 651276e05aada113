package weewx

import (
	"strings"
	"testing"

	"github.com/climated/climated/internal/testutil"
)

// TestWeewxColumnsDocumented: the table of docs/history.md ("Coming from
// weewx") names every column the import reads with the zone and
// measurement it goes to, and no column it does not read.
func TestWeewxColumnsDocumented(t *testing.T) {
	doc := testutil.Doc(t, "docs/history.md")
	_, section, ok := strings.Cut(doc, "## Coming from weewx")
	if !ok {
		t.Fatal(`docs/history.md has no "Coming from weewx"`)
	}
	documented := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.Contains(cells[1], "`") || strings.Contains(cells[1], "weewx column") {
			continue
		}
		names, ms := codeSpans(cells[1]), codeSpans(cells[3])
		if len(names) != len(ms) {
			t.Errorf("%s: %d columns, %d measurements", line, len(names), len(ms))
			continue
		}
		for i, n := range names {
			documented[n] = true
			c, ok := lookup(strings.ReplaceAll(n, "N", "1"))
			if !ok {
				t.Errorf("%s: the import reads no column %s", line, n)
				continue
			}
			part := strings.TrimSuffix(c.part, "1")
			if strings.HasSuffix(n, "N") {
				part += "N"
			}
			if string(c.m) != ms[i] || !strings.Contains(cells[2], "`"+DefaultName+" "+part+"`") {
				t.Errorf("%s: %s goes to %s of %q, the table says otherwise", line, n, c.m, DefaultName+" "+part)
			}
		}
	}
	for _, n := range ColumnNames() {
		if !documented[n] {
			t.Errorf("column %s is read but not in the table", n)
		}
	}
}

// codeSpans are the `code` spans of s.
func codeSpans(s string) []string {
	var out []string
	for i, part := range strings.Split(s, "`") {
		if i%2 == 1 {
			out = append(out, part)
		}
	}
	return out
}
