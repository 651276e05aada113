package climate

import "time"

// DefaultStaleAfter is how long a zone may go without a reading before
// the hub calls it stale: the dashboard's badge, MCP's describe_zones and
// log notifications, and what /metrics leaves out all use it.
const DefaultStaleAfter = 15 * time.Minute

// Stale says whether what was last read at when (Unix seconds) is stale
// at now: read longer than after ago, or offline (a source feeding the
// zone reports itself or the zone offline, sensors.ZoneHealth), which
// makes it stale at once.
func Stale(when int64, offline bool, now time.Time, after time.Duration) bool {
	return offline || now.Sub(time.Unix(when, 0)) > after
}
