// Package history records readings in SQLite and derives from them what the
// get_climate structure needs: the latest value of every measurement, the
// temperature extremes since local midnight, the temperature and pressure
// trends, and the rain of the last hour and the last 24 hours.
//
// A Store is a sensors.Sink. Record keeps every reading in a window of the
// recent past held in memory and hands it to a single writer goroutine that
// batches readings into one transaction at least once per FlushInterval.
// Readers use their own connection pool and never wait for the writer. At
// Open the window is rebuilt from the database, so a restart loses nothing
// that was flushed.
//
// The nested per-zone structure is shaped in one place, Snapshot, and cached
// until a reading arrives or the clock moves on to the next second, so any
// number of callers can ask for it at the cost of a pointer load.
//
// # Faults
//
// One process writes a database: Open takes a lock beside it and refuses a
// second writer with a *LockedError; OpenReadOnly users work beside it.
// When a write fails the readings stay in memory (up to DefaultMaxPending)
// and the writer retries on a timer, FlushInterval after the failure and
// twice as long after every further one, up to DefaultMaxRetryInterval,
// however fast readings arrive. A reading the database refuses for its own
// sake (a constraint) is dropped and logged, and never holds up the others.
// Health reports failing writes (ErrWritesFailing) and a writer that has
// stopped finishing writes at all (ErrWriterStuck).
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
package history
