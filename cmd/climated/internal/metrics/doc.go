// Package metrics is the hub's /metrics: readings and read errors per
// source, history writes, HTTP requests per endpoint, what the hub holds
// (source and zone ages, the database and its disk, MCP sessions, MQTT),
// and the Go runtime's and the process's own, on a registry of its own.
package metrics
