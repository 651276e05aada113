package history

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/climated/climated/history/climate"
)

// Earliest and latest times a query may name: readings before 2000 or more
// than a day ahead cannot exist, so such a bound is a typo, not a question.
var (
	Earliest = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	aheadMax = 24 * time.Hour
)

// ParseTime reads a time bound as users and models write it:
//
//   - "now";
//   - a duration before now: "90m", "24h", "7d", "2w" (also with a leading
//     minus, "-24h");
//   - "today" and "yesterday": local midnight of that day;
//   - a local date, "2026-11-30", meaning its local midnight;
//   - RFC 3339, "2026-11-30T08:00:00Z" or with an offset.
func ParseTime(s string, now time.Time, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "":
		return time.Time{}, fmt.Errorf("empty time: want now, 24h, 7d, today, yesterday, 2026-11-30 or RFC 3339")
	case "now":
		return now, nil
	case "today":
		return climate.LocalMidnight(now, loc), nil
	case "yesterday":
		return climate.LocalMidnight(climate.LocalMidnight(now, loc).Add(-time.Hour), loc), nil
	}
	var t time.Time
	if d, err := ParseDuration(strings.TrimPrefix(s, "-")); err == nil {
		t = now.Add(-d)
	} else if day, err := time.ParseInLocation(time.DateOnly, s, loc); err == nil {
		t = day
	} else if ts, err := time.Parse(time.RFC3339, s); err == nil {
		t = ts
	} else {
		return time.Time{}, fmt.Errorf("time %q: want now, a duration before now (24h, 7d), today, yesterday, a date (2026-11-30) or RFC 3339 (2026-11-30T08:00:00Z)", s)
	}
	if t.Before(Earliest) || t.After(now.Add(aheadMax)) {
		return time.Time{}, fmt.Errorf("time %q is %s: outside %s … a day from now", s, t.UTC().Format(time.RFC3339), Earliest.Format(time.DateOnly))
	}
	return t, nil
}

// ParseDuration is time.ParseDuration plus days ("7d") and weeks ("2w"),
// which Go leaves out because they are not always 24 and 168 hours long; for
// a history window that difference does not matter.
func ParseDuration(s string) (time.Duration, error) {
	if n := len(s); n > 1 && (s[n-1] == 'd' || s[n-1] == 'w') {
		v, err := strconv.ParseFloat(s[:n-1], 64)
		if err != nil || v < 0 || v > 100*366 {
			return 0, fmt.Errorf("duration %q: want a number of days or weeks such as 7d or 2w", s)
		}
		unit := 24 * time.Hour
		if s[n-1] == 'w' {
			unit *= 7
		}
		return time.Duration(v * float64(unit)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("duration %q: want 90s, 15m, 1h, 7d or 2w", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	return d, nil
}
