package demo

import "time"

// instant is a moment as the house sees it: the people in it live by the
// wall clock (with daylight saving time), the weather by the sun, which the
// local standard time follows more closely. In summer the afternoon
// maximum therefore comes an hour later by the clock, and the weather does
// not jump when the clocks change.
type instant struct {
	t       time.Time
	wall    float64 // hours since midnight on the local wall clock, [0, 24)
	day     int64   // local civil date, days since 1970-01-01
	weekend bool    // Saturday or Sunday on the local wall clock
	solar   float64 // hours since midnight in local standard time, [0, 24)
	yearDay float64 // days since 1 January 00:00 in local standard time
}

func (h *House) instant(t time.Time) instant {
	lt := t.In(h.loc)
	y, m, d := lt.Date()
	st := t.UTC().Add(time.Duration(standardOffset(y, h.loc)) * time.Second)
	wd := lt.Weekday()
	return instant{
		t:       t,
		wall:    hours(lt),
		day:     time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400,
		weekend: wd == time.Saturday || wd == time.Sunday,
		solar:   hours(st),
		yearDay: float64(st.YearDay()-1) + hours(st)/24,
	}
}

// hours is the time of day of t in hours since midnight.
func hours(t time.Time) float64 {
	return float64(t.Hour()) + float64(t.Minute())/60 +
		(float64(t.Second())+float64(t.Nanosecond())/1e9)/3600
}

// standardOffset is loc's offset from UTC in seconds without daylight saving
// time in the given year: the smaller of its offsets in January and July
// (daylight saving time adds to the standard offset in both hemispheres).
func standardOffset(year int, loc *time.Location) int {
	_, jan := time.Date(year, time.January, 1, 12, 0, 0, 0, loc).Zone()
	_, jul := time.Date(year, time.July, 1, 12, 0, 0, 0, loc).Zone()
	return min(jan, jul)
}
