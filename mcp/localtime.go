package mcp

import (
	"fmt"
	"time"
)

// The structures give times as Unix seconds (as Netatmo's API, which the
// get_climate structure follows); a model asked for "local time" cannot convert them without the
// hub's time zone, so the instructions, the prompts and the reports name it
// and the text gives times as local ISO 8601 as well.

// timeZone names the hub's time zone: its IANA name when it has one, with
// the abbreviation and offset in force now.
func (s *Server) timeZone() string {
	now := s.opts.Now().In(s.opts.Location)
	abbr, name := now.Format("MST"), s.opts.Location.String()
	offset := "UTC" + now.Format("-07:00")
	if name == "" || name == "Local" || name == abbr {
		return fmt.Sprintf("%s (%s)", abbr, offset)
	}
	return fmt.Sprintf("%s (%s, %s)", name, abbr, offset)
}

// localTime writes Unix seconds as ISO 8601 in the hub's time zone.
func (s *Server) localTime(unix int64) string {
	if unix == 0 {
		return ""
	}
	return time.Unix(unix, 0).In(s.opts.Location).Format(time.RFC3339)
}

// timesNote is the line that tells a model how to read and write times.
func (s *Server) timesNote() string {
	return fmt.Sprintf("Times in the data are Unix seconds; the hub's time zone is %s and it is now %s there: write times as local time.",
		s.timeZone(), s.opts.Now().In(s.opts.Location).Format(time.RFC3339))
}

// humanDuration writes d as a person would: "15 minutes", "2 hours 5
// minutes", "3 days".
func humanDuration(d time.Duration) string {
	d = d.Round(time.Minute)
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	days, hours, minutes := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0 && hours > 0:
		return plural(days, "day") + " " + plural(hours, "hour")
	case days > 0:
		return plural(days, "day")
	case hours > 0 && minutes > 0:
		return plural(hours, "hour") + " " + plural(minutes, "minute")
	case hours > 0:
		return plural(hours, "hour")
	default:
		return plural(minutes, "minute")
	}
}
