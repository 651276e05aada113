package mqtt

import (
	"fmt"
	"time"

	"github.com/climated/climated/mqtt/decode"
)

// maxAhead is how far ahead of this hub's clock a payload's own time
// (another hub's When and times) may be: clocks of hubs on NTP agree
// within seconds. A value stamped further ahead came from a clock set
// wrong, and taken it would be the series' latest until that time came:
// the live window, measured from its newest point, would drop every real
// reading, and When would stay in the future.
const maxAhead = 15 * time.Minute

// clockKnown is the earliest time this hub's clock can say once it is set
// (a Pi without a real-time clock says 1970 until NTP answers): before it,
// payload times are not judged by it.
var clockKnown = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// dropAhead fails res when its time is too far ahead of at, and drops (as
// problems) its values whose own times are.
func dropAhead(res *decode.Result, at time.Time) {
	if at.Before(clockKnown) {
		return
	}
	limit := at.Add(maxAhead)
	if res.Time.After(limit) {
		res.Err = aheadError("When", res.Time, at)
		res.Values = nil
		return
	}
	kept := res.Values[:0]
	for _, v := range res.Values {
		if v.Time.After(limit) {
			res.Problems = append(res.Problems, fmt.Errorf("%s: %w", v.Measurement, aheadError("time", v.Time, at)))
			continue
		}
		kept = append(kept, v)
	}
	res.Values = kept
}

func aheadError(what string, t, at time.Time) error {
	return fmt.Errorf("%s %s is %s ahead of this hub's clock (%s): a clock set wrong; not taken",
		what, t.UTC().Format(time.RFC3339), t.Sub(at).Round(time.Second), at.UTC().Format(time.RFC3339))
}
