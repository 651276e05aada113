// Package metrics is the hub's /metrics, on a registry of its own: the
// current readings, one family per measurement of the catalogue
// (readings.go, units.go; docs/prometheus.md), and the hub's health:
// readings and read errors per source, history writes, HTTP requests per
// endpoint, what the hub holds (source and zone ages, the database and its
// disk, MCP sessions, MQTT), and the Go runtime's and the process's own.
package metrics
