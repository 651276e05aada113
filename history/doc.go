// Package history records readings in SQLite: one writer goroutine, the
// tiers (raw, 5-minute, hourly and daily rollups), range and daily queries (with
// the outdoor zones' degree days and sun times), records, retention,
// import, export, backup and health. It keeps storage only; the
// live structure derived from the recent past is package climate's, and
// package hub puts the two together.
//
// Record hands readings to a single writer goroutine that batches them into
// one transaction at least once per FlushInterval. Readers use their own
// connection pool and never wait for the writer. Open reads back the recent
// window of every series (Opened, Windows) so that the live state can be
// rebuilt: a restart loses nothing that was flushed.
//
// # Faults
//
// One process writes a database: Open takes a lock beside it and refuses a
// second writer with a *LockedError; OpenReadOnly users work beside it and
// Follow what it commits.
// When a write fails the readings stay in memory (up to DefaultMaxPending)
// and the writer retries on a timer, FlushInterval after the failure and
// twice as long after every further one, up to DefaultMaxRetryInterval,
// however fast readings arrive. A reading the database refuses for its own
// sake (a constraint) is dropped and logged, and never holds up the others.
// Health reports failing writes (ErrWritesFailing) and a writer that has
// stopped finishing writes at all (ErrWriterStuck).
// On a full file system an existing database opens all the same: its
// connections keep the -shm and an emptied -wal when they close (keepWAL),
// so opening needs no new block; the writer logs that the disk is full
// once, and Health names it (FullError).
package history
