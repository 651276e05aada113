package climate

import (
	"testing"
	"time"
)

// TestDayStart: a local day starts at its midnight, or, where the clocks
// jump past midnight (tzdata 2026: Santiago's and Havana's spring), at
// the jump; the day before ends there, one hour short.
func TestDayStart(t *testing.T) {
	for _, c := range []struct {
		zone, date, want string
	}{
		{"Europe/Berlin", "2026-03-29", "2026-03-29T00:00:00+01:00"},
		{"Europe/Berlin", "2026-10-25", "2026-10-25T00:00:00+02:00"},
		{"America/Santiago", "2026-09-06", "2026-09-06T01:00:00-03:00"},
		{"America/Havana", "2026-03-08", "2026-03-08T01:00:00-04:00"},
		{"Atlantic/Azores", "2026-03-29", "2026-03-29T01:00:00Z"},
		{"UTC", "2026-12-31", "2026-12-31T00:00:00Z"},
	} {
		loc, err := time.LoadLocation(c.zone)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := time.Parse(time.DateOnly, c.date)
		got := DayStart(d.Year(), d.Month(), d.Day(), loc)
		if got.Format(time.RFC3339) != c.want {
			t.Errorf("%s %s starts at %s, want %s", c.zone, c.date, got.Format(time.RFC3339), c.want)
		}
		if noon := time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, loc); !LocalMidnight(noon, loc).Equal(got) {
			t.Errorf("%s: LocalMidnight of noon on %s is %s, want %s", c.zone, c.date, LocalMidnight(noon, loc), got)
		}
		if next := DayStart(d.Year(), d.Month(), d.Day()+1, loc); !next.After(got) || next.Sub(got) < 22*time.Hour {
			t.Errorf("%s %s: the next day starts at %s, %s later", c.zone, c.date, next, next.Sub(got))
		}
	}
}
