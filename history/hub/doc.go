// Package hub composes the parts of a running climated: the history store
// (package history), the live structure rebuilt from it and fed by every
// reading (package climate), the sources' latest statuses, and the
// notification of changes. A *Hub is the sensors.Sink that every
// source records into, and gives the MCP server and the MQTT publisher
// what they read.
//
// It owns lifecycle: every goroutine it runs (the read-only follower, and
// the parts a caller hands to Start: sources, the HTTP server, the
// watchdog) has a context of its own, and Close stops them in reverse
// order of start, waits for each, and closes the store last, so nothing
// reads a closed database.
//
// It lives beneath history, not beneath cmd/climated, so that the tests of
// its consumers (mcp) run against the real composition (Go's internal
// directories would keep them out); the sources below it (sensors, mqtt)
// test against sinks of their own level.
package hub
