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
//   - Extremes: min_temp and max_temp are the lowest and highest Temperature
//     readings since local midnight (Options.Location), date_min_temp and
//     date_max_temp the Unix time of the first reading that reached them.
//     Local midnight is computed in the configured zone, so a day that gains
//     or loses an hour to daylight saving still starts at 00:00 local time.
//   - Trends: the least-squares slope of the readings in the window before
//     now, times the window length, is the change over the window; it is
//     "up" when the change is at least the threshold, "down" when at most
//     minus the threshold, "stable" otherwise. Temperature: 1 hour window,
//     0.5 °C threshold. Pressure (sea level): 3 hour window, 1.0 hPa
//     threshold (the meteorological "steady" band). A trend needs at least
//     two readings spanning half the window; without them the key is left
//     out rather than guessed.
//   - Rain: Rain is the amount of the latest interval reported; sum_rain_1
//     and sum_rain_24 add up the Rain readings with times in (now-1h, now]
//     and (now-24h, now].
package climate
