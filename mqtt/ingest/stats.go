package ingest

import "sync/atomic"

// Stats counts what the ingest did with the messages it was given. Every
// message ends in exactly one of Oversized, QueueFull, Ignored, BadPayload,
// NoZone, Replayed or Decoded; BadValues and Readings count values.
type Stats struct {
	Received   uint64 // messages the broker delivered
	Oversized  uint64 // dropped: payload larger than MaxPayload
	QueueFull  uint64 // dropped: the queue was full (the sink is too slow)
	Ignored    uint64 // topics the format does not use (bridge logs, device info …)
	BadPayload uint64 // unusable payloads: not JSON, wrong shape
	NoZone     uint64 // values of devices that feed no zone (or beyond max_auto_zones)
	Replayed   uint64 // retained repeats and climated states already seen
	Decoded    uint64 // messages whose values went on
	BadValues  uint64 // values dropped: wrong type, NaN/Inf, impossible
	Readings   uint64 // readings handed to the sink
	SinkErrors uint64 // Record calls that failed
	// Redelivered counts the messages, among the Decoded and Replayed,
	// that the broker delivered again after their readings had been
	// recorded (the hub stopped or lost the connection before its
	// acknowledgement reached the broker): their readings were dropped.
	Redelivered uint64
}

type counters struct {
	received, oversized, queueFull, ignored, badPayload, noZone,
	replayed, decoded, badValues, readings, sinkErrors, redelivered atomic.Uint64
}

func (c *counters) snapshot() Stats {
	return Stats{
		Received: c.received.Load(), Oversized: c.oversized.Load(), QueueFull: c.queueFull.Load(),
		Ignored: c.ignored.Load(), BadPayload: c.badPayload.Load(), NoZone: c.noZone.Load(),
		Replayed: c.replayed.Load(), Decoded: c.decoded.Load(), BadValues: c.badValues.Load(),
		Readings: c.readings.Load(), SinkErrors: c.sinkErrors.Load(), Redelivered: c.redelivered.Load(),
	}
}
