package ingest

import (
	"fmt"
	"math"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/mqtt/decode"
)

// Another hub's payload times (When and times) are judged by this hub's
// clock as the history judges every reading (climate.NewestCurrent): stamped
// more than climate.MaxAhead past it, by a clock set wrong, they are
// refused here with a warning, rather than kept and left waiting until
// the clock reaches them. dropAhead fails res when its time is that far
// ahead of at, and drops (as problems) its values whose own times are.
func dropAhead(res *decode.Result, at time.Time) {
	h := climate.NewestCurrent(at)
	if h == math.MaxInt64 {
		return // the clock is not set: it judges nothing
	}
	limit := time.Unix(h, 0)
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
