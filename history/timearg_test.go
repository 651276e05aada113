package history

import (
	"strings"
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	berlin := mustLoad(t, "Europe/Berlin")
	now := time.Date(2026, 11, 30, 14, 30, 0, 0, berlin)
	cases := []struct {
		in, want, err string
	}{
		{"now", "2026-11-30T13:30:00Z", ""},
		{"24h", "2026-11-29T13:30:00Z", ""},
		{"-24h", "2026-11-29T13:30:00Z", ""},
		{"7d", "2026-11-23T13:30:00Z", ""},
		{"2w", "2026-11-16T13:30:00Z", ""},
		{"90m", "2026-11-30T12:00:00Z", ""},
		{"today", "2026-11-29T23:00:00Z", ""},
		{"yesterday", "2026-11-28T23:00:00Z", ""},
		{"2026-10-25", "2026-10-24T22:00:00Z", ""}, // CEST midnight of the fall-back day
		{"2026-11-30T08:00:00Z", "2026-11-30T08:00:00Z", ""},
		{"2026-11-30T08:00:00+01:00", "2026-11-30T07:00:00Z", ""},
		{"", "", "empty time"},
		{"last tuesday", "", `time "last tuesday": want now`},
		{"1900-01-01", "", "outside 2000-01-01"},
		{"3000-01-01T00:00:00Z", "", "outside"},
		{"100000d", "", "want now"},
	}
	for _, c := range cases {
		got, err := ParseTime(c.in, now, berlin)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseTime(%q) error = %v, want %q", c.in, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("ParseTime(%q): %v", c.in, err)
		case c.err == "" && got.UTC().Format(time.RFC3339) != c.want:
			t.Errorf("ParseTime(%q) = %s, want %s", c.in, got.UTC().Format(time.RFC3339), c.want)
		}
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"now", "24h", "7d", "2026-11-30", "2026-11-30T08:00:00Z", "-1.5w", "1e308d"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 30, 14, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := ParseTime(s, now, time.UTC)
		if err == nil && (ts.Before(Earliest) || ts.After(now.Add(aheadMax))) {
			t.Errorf("ParseTime(%q) = %s outside the allowed range", s, ts)
		}
	})
}

func mustLoad(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
