package ingest

import (
	"math"
	"slices"
	"sort"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/mqtt/decode"
	"github.com/climated/climated/sensors"
)

// roundTo rounds v to a step of res (a power of ten, as the catalogue's
// resolutions are).
func roundTo(v, res float64) float64 {
	inv := math.Round(1 / res)
	return math.Round(v*inv) / inv
}

// unrecorded returns how much of v, another hub's total of an amount
// over (v.Since, v.Time], this hub has not recorded from d yet, and counts
// it as recorded; ok is false when nothing is missing. What was recorded
// is read once from the history (recorded; nil for none), which holds
// what earlier runs took, and kept for the window of a day's sums.
func (d *device) unrecorded(v decode.Value, recorded func(zone string, m sensors.Measurement, from int64) []climate.Point) (float64, bool) {
	pts, ok := d.logged[v.Measurement]
	if !ok && recorded != nil {
		pts = slices.DeleteFunc(recorded(d.zone, v.Measurement, 0), func(p climate.Point) bool { return p.V == 0 })
	}
	to := v.Time.Unix()
	info, _ := sensors.Lookup(v.Measurement)
	missing := roundTo(v.Value-climate.Sum(pts, v.Since.Unix(), to), info.Resolution)
	if missing > 0 {
		pts = climate.Merge(pts, climate.Point{T: to, V: missing}, true)
	}
	if d.logged == nil {
		d.logged = map[sensors.Measurement][]climate.Point{}
	}
	d.logged[v.Measurement] = pruned(pts, int64(climate.DefaultWindow/time.Second))
	return missing, missing > 0
}

// pruned drops the points more than keep seconds older than the newest.
func pruned(pts []climate.Point, keep int64) []climate.Point {
	if len(pts) == 0 {
		return pts
	}
	cut := pts[len(pts)-1].T - keep
	i := sort.Search(len(pts), func(i int) bool { return pts[i].T > cut })
	return append(pts[:0], pts[i:]...)
}
