// Package climate is the get_climate structure and everything that shapes
// it, with no storage: the recent window of every series held in memory
// (Live), the derivations over it (Extremes, Trend, Sum, LocalMidnight),
// the structure's key names, and the Snapshot that callers share.
//
// It runs no goroutines and touches no disk: the history store feeds it
// the windows it reads back at start-up, the hub feeds it every reading,
// and MCP, the MQTT publisher and `climated read` read what it shapes.
//
// The nested per-zone structure is shaped in one place, Live.Snapshot, and
// cached until a reading arrives or the clock moves on to the next second,
// so any number of callers can ask for it at the cost of a pointer load.
//
// # The present
//
// What is current is judged against the clock (Options.Now) at every
// read: a reading stamped more than MaxAhead after it (once it is set, see
// ClockSet) is ahead, stamped by a clock set wrong. It is neither the
// series' latest value nor When, the window is measured from the newest
// reading up to NewestCurrent, and the derivations see only the readings up to
// it, so one reading a year ahead cannot hide the present. Storage keeps
// it, and reads windows back only up to NewestCurrent.
//
// # Derivations
//
// Extremes, Trend and Sum (derive.go) make the derived keys: min_temp and
// max_temp since local midnight in Options.Location (LocalMidnight, so a
// day of a daylight-saving change still starts at 00:00), with the time of
// the first reading that reached each; the temperature and pressure trends
// (TemperatureTrend, PressureTrend); Rain's sums over (now−1h, now] and
// (now−24h, now]. docs/mcp.md says how, as users read them.
package climate
