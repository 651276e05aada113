package climate

import (
	"math"
	"sort"
	"time"
)

// MaxAhead is how far past the hub's clock a reading may be stamped and
// still count as current: clocks on NTP agree within seconds, and a
// device's may drift by a few minutes. A reading stamped further ahead
// was stamped by a clock set wrong (by hand, a bad NTP server, an old
// fake-hwclock, a file imported with such rows): the history keeps it,
// but it is neither the series' latest reading nor the end its window is
// measured from until the clock reaches it, so it cannot hide the present.
const MaxAhead = 15 * time.Minute

// ClockSet is the earliest time a clock that was ever set can say: a Pi
// without a real-time clock says 1970 (or the time of its last shutdown)
// until NTP answers, and such a clock judges no reading ahead.
var ClockSet = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// NewestCurrent is the Unix time of the newest reading that is current at now:
// now plus MaxAhead, or no limit when now is before ClockSet. A reading
// stamped after it is ahead of the clock.
func NewestCurrent(now time.Time) int64 {
	if now.Before(ClockSet) {
		return math.MaxInt64
	}
	return now.Add(MaxAhead).Unix()
}

// upTo returns the prefix of pts (sorted by time) with T <= h.
func upTo(pts []Point, h int64) []Point {
	return pts[:sort.Search(len(pts), func(i int) bool { return pts[i].T > h })]
}
