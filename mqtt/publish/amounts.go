package publish

import (
	"math"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// What a published state says of its amounts (rain), under
// decode.KeyAmounts: every nonzero value of the day before the zone's
// When, so that another hub that started later, or was off for a while,
// records the rain it missed and its sum_rain_24 agrees with this hub's.
const (
	// amountWindow is how far back a state's amount log goes: as far as
	// the longest sum, sum_rain_24.
	amountWindow = 24 * time.Hour
	// maxAmountEntries bounds a log: beyond it, neighbouring values are
	// added up, each group timed at its last value. A rain gauge's
	// 5-minute readings never reach it; a weather station sending every
	// 16 s through a whole day of rain does, and its log then has
	// 5-minute steps.
	maxAmountEntries = 288
)

// amountLog is one measurement's log, as published.
type amountLog struct {
	From int64        `json:"from"`
	Log  [][2]float64 `json:"log"`
}

// amountLogs returns the logs of zone's amounts among keys, for the day
// before when; nil when the zone has none.
func amountLogs(hub Snapshots, zone string, keys map[string]any, when int64) map[string]amountLog {
	var logs map[string]amountLog
	from := when - int64(amountWindow/time.Second)
	for _, m := range sensors.Measurements() {
		info, _ := sensors.Lookup(m)
		if _, ok := keys[string(m)]; !ok || info.Kind != sensors.Amount {
			continue
		}
		pts := coalesce(nonzero(hub.Points(zone, m, from)), from, maxAmountEntries, info.Resolution)
		l := amountLog{From: from, Log: make([][2]float64, len(pts))}
		for i, p := range pts {
			l.Log[i] = [2]float64{float64(p.T), p.V}
		}
		if logs == nil {
			logs = map[string]amountLog{}
		}
		logs[string(m)] = l
	}
	return logs
}

func nonzero(pts []climate.Point) []climate.Point {
	out := pts[:0]
	for _, p := range pts {
		if p.V != 0 {
			out = append(out, p)
		}
	}
	return out
}

// coalesce returns pts (after from, in time order) in at most max
// entries: when there are more, the span from from to the last point is
// cut into max equal steps and each step's points are added up, timed at
// the step's last point, so that every entry is still the total since the
// entry before it. Sums are rounded to res.
func coalesce(pts []climate.Point, from int64, max int, res float64) []climate.Point {
	if len(pts) <= max {
		return pts
	}
	step := (pts[len(pts)-1].T - from + int64(max) - 1) / int64(max)
	out := make([]climate.Point, 0, max)
	group := int64(-1)
	for _, p := range pts {
		if g := (p.T - from - 1) / step; g != group || len(out) == 0 {
			group = g
			out = append(out, climate.Point{T: p.T, V: p.V})
			continue
		}
		last := &out[len(out)-1]
		last.T, last.V = p.T, roundTo(last.V+p.V, res)
	}
	return out
}

// roundTo rounds v to a step of res (a power of ten, as the catalogue's
// resolutions are).
func roundTo(v, res float64) float64 {
	inv := math.Round(1 / res)
	return math.Round(v*inv) / inv
}
