// Package alerting runs the alert engine of a serving hub: it judges
// every batch the hub records, ticks the silence rules, and hands each
// event to the assistants (MCP), to MQTT and to the webhook, through a
// bounded queue that never holds up the readings.
package alerting
