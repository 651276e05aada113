package mcp

import (
	"testing"
	"time"
)

// TestLocalDays: the days a span covers are the local days it touches,
// a day of 23 or 25 hours one day, a span ending at midnight not
// touching the day that starts there.
func TestLocalDays(t *testing.T) {
	cases := []struct {
		from, to string // RFC 3339 in Berlin's offset of the time
		want     int
	}{
		{"2026-05-01T00:00:00+02:00", "2026-05-01T00:01:00+02:00", 1},
		{"2026-05-01T00:00:00+02:00", "2026-05-02T00:00:00+02:00", 1},
		{"2026-05-01T23:59:00+02:00", "2026-05-02T00:01:00+02:00", 2},
		{"2026-05-01T00:00:00+02:00", "2026-06-01T00:00:00+02:00", 31},
		{"2026-05-01T00:00:00+02:00", "2026-06-01T00:01:00+02:00", 32},
		{"2026-05-01T12:00:00+02:00", "2026-05-31T12:00:00+02:00", 31},
		{"2026-03-01T00:00:00+01:00", "2026-04-01T00:00:00+02:00", 31}, // 743 hours
		{"2026-10-01T00:00:00+02:00", "2026-11-01T00:00:00+01:00", 31}, // 745 hours
		{"2026-12-31T22:00:00+01:00", "2027-01-01T02:00:00+01:00", 2},
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	for _, c := range cases {
		from, err1 := time.Parse(time.RFC3339, c.from)
		to, err2 := time.Parse(time.RFC3339, c.to)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := localDays(from, to, berlin); got != c.want {
			t.Errorf("localDays(%s, %s) = %d, want %d", c.from, c.to, got, c.want)
		}
	}
}
